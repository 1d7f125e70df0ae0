import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { GENERATED_TYPES_PATH, renderTypes } from '../libs/sdk/scripts/render-types.mjs';
import {
  type AuditEntry,
  AuthError,
  ConnectionError,
  type Member,
  NotFoundError,
  type PendingInvitation,
  PlatformClient,
  PlatformError,
  RateLimitError,
  signatureHeader,
  ValidationError,
  verifyWebhook,
  WebhookSignatureError,
} from '../libs/sdk/src/index.js';
import { AnalyticsBuffer } from '../src/analytics/analytics-buffer.js';
import { FaultProxy, startFaultProxy } from './support/fault-proxy.js';
import { hasLocalModel, startSdkTestServer } from './support/sdk-server.js';
import { ADMIN_TOKEN, createAccount, createServiceAccount, target, TestApp } from './support/test-app.js';
import { Receiver, until } from './support/webhook-receiver.js';
import { itUnless } from './support/skips.js';
import { addMember } from './support/members.js';

const ROOT = join(import.meta.dirname, '..');
const SDK_DIR = join(ROOT, 'libs/sdk');
const hasPython = spawnSync('python3', ['--version']).status === 0;
const itWithModel = itUnless(!hasLocalModel && 'no local GGUF model or node-llama-cpp here');
const itWithPython = itUnless(!hasPython && 'python3 is not installed here');

/** Runs Python with the Python SDK importable; returns stdout, throws with stderr on failure. */
function python(code: string, input = ''): string {
  return execFileSync('python3', ['-c', code], { input, cwd: join(ROOT, 'libs/sdk-python'), encoding: 'utf8' }).trim();
}

/** Counts the requests a client sends, by method. */
function countingFetch() {
  const calls: Array<{ method: string; url: string }> = [];
  const wrapped: typeof fetch = (input, init) => {
    calls.push({ method: init?.method ?? 'GET', url: String(input) });
    return fetch(input, init);
  };
  return { calls, fetch: wrapped };
}

describe(`TypeScript SDK against a real server (${target})`, () => {
  let app: TestApp;
  let apiKey: string;
  let client: PlatformClient;

  beforeAll(async () => {
    app = await startSdkTestServer();
    ({ apiKey } = await createAccount(app));
    client = new PlatformClient({ apiKey, baseUrl: app.url, retryBaseMs: 20 });
  });
  afterAll(() => app.close());

  it('pages through 250 apps with an async iterator that follows nextCursor', async () => {
    const { apiKey: ownKey } = await createAccount(app);
    const own = new PlatformClient({ apiKey: ownKey, baseUrl: app.url });
    const created: string[] = [];
    for (let i = 0; i < 250; i += 10) {
      const batch = await Promise.all(Array.from({ length: 10 }, (_, j) => own.apps.create({ name: `app ${i + j}` })));
      created.push(...batch.map((a) => a.appId));
    }
    const counter = countingFetch();
    const paging = new PlatformClient({ apiKey: ownKey, baseUrl: app.url, fetch: counter.fetch });
    const seen: string[] = [];
    for await (const a of paging.apps.list({ limit: 100 })) seen.push(a.appId);
    expect(seen).toHaveLength(250);
    expect(new Set(seen)).toEqual(new Set(created));
    // Three pages of 100, 100 and 50; the last has no nextCursor.
    expect(counter.calls.map((c) => new URL(c.url).searchParams.get('limit'))).toEqual(['100', '100', '100']);
    expect(counter.calls.map((c) => new URL(c.url).searchParams.has('cursor'))).toEqual([false, true, true]);
  });

  it('creates, reads, updates and deletes an app', async () => {
    const made = await client.apps.create({ name: 'TS app', description: 'from TypeScript' });
    expect(made).toMatchObject({ name: 'TS app', description: 'from TypeScript' });
    expect(await client.apps.get(made.appId)).toEqual(made);
    const renamed = await client.apps.update(made.appId, { name: 'TS app 2' });
    expect(renamed.name).toBe('TS app 2');
    await expect(client.apps.delete(made.appId)).resolves.toBeUndefined();
    const gone = await client.apps.get(made.appId).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(NotFoundError);
    expect(gone).toMatchObject({ status: 404, code: 404, kind: 'not_found', reason: 'app_not_found' });
  });

  it('publishes, rolls back and unpublishes an app, and lists the catalogue', async () => {
    const made = await client.apps.create({ name: 'Publish SDK', slug: 'publish-sdk-ts', visibility: 'public' });
    expect(made).toMatchObject({ slug: 'publish-sdk-ts', visibility: 'public', publishState: 'draft', publicUrl: null });
    const first = (await client.deployments.deploy({ appId: made.appId, env: 'production' })).deploymentId;
    const second = (await client.deployments.deploy({ appId: made.appId, env: 'production' })).deploymentId;
    const published = await client.apps.publish(made.appId);
    expect(published).toMatchObject({ publishState: 'published', publishedDeploymentId: second, publicUrl: `${app.url}/p/publish-sdk-ts/` });
    expect((await client.apps.publish(made.appId, { deploymentId: first })).publishedDeploymentId).toBe(first);
    const listed = async () => {
      const slugs: string[] = [];
      for await (const entry of client.catalog.list({ limit: 1 })) slugs.push(entry.slug);
      return slugs;
    };
    expect(await listed()).toContain('publish-sdk-ts');
    expect(await client.apps.unpublish(made.appId)).toMatchObject({ publishState: 'unpublished', publishedDeploymentId: null, publicUrl: null });
    expect(await listed()).not.toContain('publish-sdk-ts');
    expect(await client.apps.update(made.appId, { slug: 'publish-sdk-ts-2', visibility: 'unlisted' })).toMatchObject({
      slug: 'publish-sdk-ts-2',
      visibility: 'unlisted',
    });
  });

  it('starts, reads and ends a split test', async () => {
    const made = await client.apps.create({ name: 'Split SDK', slug: 'split-sdk-ts' });
    const a = (await client.deployments.deploy({ appId: made.appId, env: 'production' })).deploymentId;
    const b = (await client.deployments.deploy({ appId: made.appId, env: 'production' })).deploymentId;
    await client.apps.publish(made.appId, { deploymentId: a });
    const variants = [
      { deploymentId: a, weight: 60 },
      { deploymentId: b, weight: 40 },
    ];
    const started = await client.splits.start(made.appId, variants);
    expect(started).toEqual({ id: expect.stringMatching(/^spl_/), variants, startedAt: expect.any(String) });
    expect(await client.splits.get(made.appId)).toEqual({
      ...started,
      variants: [
        { ...variants[0], visitors: 0, signups: 0, conversionRate: 0, chanceToBeatFirst: null },
        { ...variants[1], visitors: 0, signups: 0, conversionRate: 0, chanceToBeatFirst: null },
      ],
    });
    const bad = await client.splits.start(made.appId, [{ deploymentId: a, weight: 100 }]).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ValidationError);
    expect((bad as ValidationError).message).toMatch(/variants must contain at least 2 elements/);
    await expect(client.splits.end(made.appId)).resolves.toBeUndefined();
    const none = await client.splits.get(made.appId).catch((e: unknown) => e);
    expect(none).toBeInstanceOf(NotFoundError);
    expect(none).toMatchObject({ status: 404, reason: 'split_not_found' });
  });

  it('claims, lists, verifies and deletes a custom domain', async () => {
    const app = await client.apps.create({ name: 'TS domains' });
    const hostname = `ts-${Date.now()}.example.com`;
    const domain = await client.domains.create(app.appId, { hostname: hostname.toUpperCase() });
    expect(domain).toMatchObject({ hostname, status: 'pending', verification: { type: 'TXT', name: `_platform-challenge.${hostname}` } });
    expect(domain.target).toEqual({ type: 'CNAME', name: hostname, value: expect.any(String) });
    expect((await client.domains.get(domain.id)).verification.value).toBe(domain.verification.value);
    const listed: string[] = [];
    for await (const d of client.domains.list(app.appId)) listed.push(d.id);
    expect(listed).toEqual([domain.id]);
    // Nothing at the challenge name: still pending, with what the check found.
    const checked = await client.domains.verify(domain.id);
    expect(checked.status).toBe('pending');
    expect(['no_record', 'resolver_error']).toContain(checked.lastCheck?.result);
    await expect(client.domains.create(app.appId, { hostname })).rejects.toMatchObject({ status: 409, reason: 'domain_exists' });
    await expect(client.domains.create(app.appId, { hostname: 'localhost' })).rejects.toBeInstanceOf(ValidationError);
    await client.domains.delete(domain.id);
    await expect(client.domains.get(domain.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('reads the plan, usage and statements', async () => {
    const billing = await client.billing.get();
    expect(billing.plan).toEqual({ id: 'free', name: 'Free' });
    expect(billing.usage.map((u) => u.meter)).toEqual([
      'api.requests',
      'ai.tokens',
      'deployments',
      'analytics.events',
      'webhook.deliveries',
      'bandwidth.bytes',
      'storage.bytes',
      'functions.requests',
      'functions.duration_ms',
    ]);
    const statements = [];
    for await (const statement of client.billing.statements()) statements.push(statement);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ status: 'open', currency: 'usd', plan: { id: 'free' }, period: billing.period });
  });

  it('reads analytics: aggregate, timeseries, breakdown (paged) and realtime', async () => {
    const made = await client.apps.create({ name: 'Analytics SDK' });
    const { deploymentId, url } = await client.deployments.deploy({ appId: made.appId, env: 'production' });
    const browsers = [
      'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0.0.0 Safari/537.36',
    ];
    for (const ua of browsers) expect((await fetch(url, { headers: { 'user-agent': ua } })).status).toBe(200);
    await app.server.app.get(AnalyticsBuffer).flush();
    expect(await client.analytics.aggregate(made.appId, { period: 'day', metrics: ['visitors', 'pageviews'] })).toEqual({
      results: { visitors: { value: 2 }, pageviews: { value: 2 } },
    });
    expect(await client.analytics.aggregate(made.appId, { period: 'day', filters: { browser: 'Firefox', deployment: deploymentId } })).toEqual({
      results: { visitors: { value: 1 } },
    });
    const series = await client.analytics.timeseries(made.appId, { period: '7d', interval: 'day', metrics: ['pageviews'] });
    expect(series.results.map((r) => r.pageviews)).toEqual([0, 0, 0, 0, 0, 0, 2]);
    const rows = [];
    for await (const row of client.analytics.breakdown(made.appId, 'browser', { period: 'day', limit: 1 })) rows.push(row);
    expect(rows).toEqual([
      { browser: 'Chrome', visitors: 1 },
      { browser: 'Firefox', visitors: 1 },
    ]);
    expect(await client.analytics.realtime(made.appId)).toEqual({ visitors: 2 });
  });

  it('manages goals and reads custom events, props and goal conversions', async () => {
    const made = await client.apps.create({ name: 'Goals SDK' });
    const beacon = JSON.stringify({ appId: made.appId, name: 'Download', url: 'https://sdk.example/docs', props: { plan: 'pro' } });
    const headers = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0', 'content-type': 'text/plain' };
    expect((await fetch(`${app.url}/collect`, { method: 'POST', headers, body: beacon })).status).toBe(202);
    await app.server.app.get(AnalyticsBuffer).flush();
    const goal = await client.goals.create(made.appId, { event: 'Download' });
    expect(goal).toMatchObject({ name: 'Download', event: 'Download' });
    await expect(client.goals.create(made.appId, { event: 'Download' })).rejects.toMatchObject({ status: 409, reason: 'goal_exists' });
    expect((await client.goals.create(made.appId, { page: '/docs/*' })).name).toBe('Visit /docs/*');
    const rows = async (property: 'goal' | `props.${string}`, filters = {}) => {
      const all = [];
      for await (const row of client.analytics.breakdown(made.appId, property, { period: 'day', filters })) all.push(row);
      return all;
    };
    expect(await rows('goal')).toEqual([{ goal: 'Download', visitors: 1, events: 1, conversionRate: 100 }]);
    expect(await rows('props.plan', { event: 'Download' })).toEqual([{ 'props.plan': 'pro', visitors: 1, events: 1 }]);
    const funnel = [];
    for await (const row of client.analytics.breakdown(made.appId, 'page', {
      period: 'day',
      metrics: ['visitors', 'signups', 'conversionRate'],
      goal: 'Download',
    }))
      funnel.push(row);
    expect(funnel).toEqual([{ page: '/docs', visitors: 1, signups: 1, conversionRate: 100 }]);
    expect(await client.analytics.aggregate(made.appId, { period: 'day', metrics: ['events'] })).toEqual({ results: { events: { value: 1 } } });
    await client.goals.delete(made.appId, goal.id);
    expect((await client.goals.list(made.appId)).map((g) => g.name)).toEqual(['Visit /docs/*']);
  });

  it('turns the calling member’s e-mail reports on and off', async () => {
    const made = await client.apps.create({ name: 'Reports SDK' });
    const member = await addMember(app, apiKey, `reports-${Date.now()}@sdk.test`, 'viewer');
    const mine = new PlatformClient({ apiKey: member.apiKey, baseUrl: app.url, retryBaseMs: 20 });
    expect(await mine.reports.get(made.appId)).toEqual({ weekly: false, monthly: false });
    expect(await mine.reports.set(made.appId, { monthly: true })).toEqual({ weekly: false, monthly: true });
    expect(await mine.reports.set(made.appId, { weekly: true, monthly: false })).toEqual({ weekly: true, monthly: false });
    expect(await mine.reports.get(made.appId)).toEqual({ weekly: true, monthly: false });
    // The account's first key acts for no member.
    await expect(client.reports.get(made.appId)).rejects.toMatchObject({ status: 403, reason: 'report_member_required' });
  });

  itWithModel('reads, replaces and generates a landing page', async () => {
    const made = await client.apps.create({ name: 'Landing SDK', description: 'A page from TypeScript' });
    const initial = await client.landingPage.get(made.appId);
    expect(initial).toMatchObject({ appId: made.appId, source: 'default', page: { hero: { headline: 'Landing SDK' } } });
    const edited = await client.landingPage.put(made.appId, { ...initial.page, cta: { headline: 'Written in TypeScript' } });
    expect(edited).toMatchObject({ source: 'manual', page: { cta: { headline: 'Written in TypeScript' } } });
    const generated = await client.landingPage.generate(made.appId, { sections: ['hero'] });
    expect(generated.source).toBe('generated');
    expect(generated.page.cta.headline).toBe('Written in TypeScript');
    expect(generated.page.hero.headline.length).toBeGreaterThan(0);
    const invalid = await client.landingPage.put(made.appId, { ...initial.page, theme: { accent: 'red' } }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ValidationError);
    expect((invalid as ValidationError).message).toContain('theme.accent');
  });

  it('deploys, and reads the deployment back', async () => {
    const made = await client.apps.create({ name: 'Deploy me' });
    const result = await client.deployments.deploy({ appId: made.appId, env: 'production' });
    expect(result).toMatchObject({ status: 'success', deploymentId: expect.stringMatching(/^dep_/) });
    expect((await client.deployments.get(result.deploymentId)).appId).toBe(made.appId);
    const listed: string[] = [];
    for await (const d of client.deployments.list(made.appId)) listed.push(d.deploymentId);
    expect(listed).toEqual([result.deploymentId]);

    const invalid = await client.deployments.deploy({ appId: made.appId, env: 'Prod!' }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ValidationError);
    expect((invalid as ValidationError).message).toMatch(/env/);
    expect((invalid as ValidationError).requestId).toBeTruthy();
  });

  describe('retries', () => {
    let proxy: FaultProxy;
    beforeEach(async () => (proxy = await startFaultProxy(app.url)));
    afterEach(() => proxy.close());

    it('waits out Retry-After after a 429, then succeeds', async () => {
      proxy.plan = ['429', 'ok'];
      const viaProxy = new PlatformClient({ apiKey, baseUrl: proxy.url, retryBaseMs: 20 });
      const made = await viaProxy.apps.create({ name: 'after 429' });
      expect(made.name).toBe('after 429');
      expect(proxy.seen).toHaveLength(2);
      expect(proxy.seen[1].at - proxy.seen[0].at).toBeGreaterThanOrEqual(1000);
    });

    it('raises RateLimitError with retryAfter when retries run out', async () => {
      proxy.plan = ['429'];
      const once = new PlatformClient({ apiKey, baseUrl: proxy.url, maxRetries: 0 });
      const err = await once.apps.get('app_x').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RateLimitError);
      expect(err).toMatchObject({ status: 429, retryAfter: 1, kind: 'rate_limit', message: 'Rate limit reached. Retry in 60 seconds.' });
    });

    it('after a 500, retries a deploy with the same Idempotency-Key: exactly one deployment exists', async () => {
      const made = await client.apps.create({ name: 'Once only' });
      proxy.plan = ['500-after', 'ok'];
      const viaProxy = new PlatformClient({ apiKey, baseUrl: proxy.url, retryBaseMs: 20 });
      const result = await viaProxy.deployments.deploy({ appId: made.appId, env: 'staging' });
      const posts = proxy.seen.filter((r) => r.method === 'POST');
      expect(posts).toHaveLength(2);
      expect(posts[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
      expect(posts[1].headers['idempotency-key']).toBe(posts[0].headers['idempotency-key']);
      const rows = await app.query<{ id: string }>('SELECT id FROM deployments WHERE app_id = $1', [made.appId]);
      expect(rows.map((r) => r.id)).toEqual([result.deploymentId]);
    });

    it('never retries other 4xx answers', async () => {
      const viaProxy = new PlatformClient({ apiKey, baseUrl: proxy.url, retryBaseMs: 20 });
      await expect(viaProxy.apps.get('app_missing')).rejects.toBeInstanceOf(NotFoundError);
      await expect(viaProxy.apps.create({ name: '' })).rejects.toBeInstanceOf(ValidationError);
      expect(proxy.seen).toHaveLength(2);
    });

    it('retries network errors, then raises ConnectionError', async () => {
      const counter = countingFetch();
      const port = Number(new URL(proxy.url).port);
      await proxy.close();
      proxy.close = async () => undefined;
      const offline = new PlatformClient({ apiKey, baseUrl: `http://127.0.0.1:${port}`, maxRetries: 2, retryBaseMs: 10, fetch: counter.fetch });
      const err = await offline.apps.get('app_x').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectionError);
      expect(err).toMatchObject({ status: 0, kind: 'connection' });
      expect(counter.calls).toHaveLength(3);
    });
  });

  it('re-issues a portal invite with the admin token (the earlier link ends); NotFoundError for an unknown account', async () => {
    const admin = new PlatformClient({ apiKey: ADMIN_TOKEN, baseUrl: app.url });
    const account = (await createAccount(app)) as { accountId: string; portalInviteUrl?: string };
    const invite = await admin.admin.reissueInvite(account.accountId);
    expect(Object.keys(invite)).toEqual(['portalInviteUrl']);
    expect(invite.portalInviteUrl).toMatch(/\/portal\/invite\/[A-Za-z0-9_-]{32}$/);
    expect(invite.portalInviteUrl).not.toBe(account.portalInviteUrl);
    expect((await fetch(`${app.url}${new URL(account.portalInviteUrl!).pathname}`)).status).toBe(404);
    expect((await fetch(`${app.url}${new URL(invite.portalInviteUrl).pathname}`)).status).toBe(200);
    const err = await admin.admin.reissueInvite('acc_missing').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).toMatchObject({ status: 404 });
  });

  it('raises AuthError on a 401, with the request id', async () => {
    const stranger = new PlatformClient({ apiKey: `sk_${'x'.repeat(40)}`, baseUrl: app.url });
    const err = await stranger.apps.get('app_x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err).toMatchObject({ status: 401, code: 401, kind: 'auth' });
    expect((err as AuthError).requestId).toMatch(/.+/);
  });

  it('manages members and reads the audit log', async () => {
    const account = await createAccount(app);
    const owned = new PlatformClient({ apiKey: account.apiKey, baseUrl: app.url });
    const members: Member[] = [];
    for await (const m of owned.members.list()) members.push(m);
    expect(members).toEqual([expect.objectContaining({ email: account.email, role: 'owner' })]);
    const invitation = await owned.members.invite({ email: `sdk-${Date.now()}@example.com`, role: 'developer' });
    expect(invitation).toMatchObject({ role: 'developer', emailed: false, invitationUrl: expect.stringContaining('/portal/join/') });
    // Demoting an owner is for an owner signed in to the portal: never a key.
    await expect(owned.members.changeRole(members[0].id, 'viewer')).rejects.toMatchObject({ status: 403, reason: 'owner_member_required' });
    await expect(owned.members.remove('mem_unknown')).rejects.toMatchObject({ status: 404 });
    const entries: AuditEntry[] = [];
    for await (const e of owned.auditLog.list({ action: 'member.invited', from: new Date(Date.now() - 60_000) })) entries.push(e);
    expect(entries).toEqual([expect.objectContaining({ action: 'member.invited', target: { type: 'invitation', id: invitation.id } })]);

    // Pending invitations: listed across pages (never their link), revoked once.
    const other = await owned.members.invite({ email: `sdk-other-${Date.now()}@example.com`, role: 'viewer' });
    const pending: PendingInvitation[] = [];
    for await (const i of owned.members.invitations({ limit: 1 })) pending.push(i);
    expect(pending.map((i) => i.id)).toEqual([other.id, invitation.id]);
    expect(pending[1]).toEqual({
      id: invitation.id,
      email: invitation.email,
      role: 'developer',
      invitedBy: null,
      emailed: false,
      createdAt: expect.any(String),
      expiresAt: invitation.expiresAt,
    });
    await owned.members.revokeInvitation(invitation.id);
    const left: PendingInvitation[] = [];
    for await (const i of owned.members.invitations()) left.push(i);
    expect(left.map((i) => i.id)).toEqual([other.id]);
    await expect(owned.members.revokeInvitation(invitation.id)).rejects.toMatchObject({ status: 404, reason: 'invitation_not_found' });
  });

  it('manages API keys, and fetches and reuses an OAuth client-credentials token', async () => {
    const created = await client.apiKeys.create({ name: 'sdk', scopes: ['apps:read'] });
    expect(created.key).toMatch(/^sk_/);
    expect((await client.apiKeys.list()).map((k) => k.id)).toContain(created.id);
    await client.apiKeys.revoke(created.id);
    expect((await client.apiKeys.list()).map((k) => k.id)).not.toContain(created.id);

    const account = await createAccount(app);
    const sa = await createServiceAccount(app, account.apiKey, 'ci', ['apps:read', 'apps:write']);
    const counter = countingFetch();
    const base = new PlatformClient({ baseUrl: app.url, fetch: counter.fetch });
    const tokens = base.oauth.clientCredentials(sa.clientId, sa.clientSecret, 'apps:read apps:write');
    const viaOAuth = new PlatformClient({ baseUrl: app.url, tokenProvider: tokens, fetch: counter.fetch });
    const made = await viaOAuth.apps.create({ name: 'by a service account' });
    expect((await viaOAuth.apps.get(made.appId)).name).toBe('by a service account');
    // One token for both calls.
    expect(counter.calls.filter((c) => c.url.endsWith('/oauth/token'))).toHaveLength(1);
  });

  it('refreshes the OAuth token before it expires', async () => {
    let issued = 0;
    const fakeTokenServer: typeof fetch = async () =>
      new Response(JSON.stringify({ access_token: `tok_${++issued}`, token_type: 'Bearer', expires_in: 1, scope: 'apps:read' }), { status: 200 });
    const tokens = new PlatformClient({ baseUrl: app.url, fetch: fakeTokenServer }).oauth.clientCredentials('id', 'secret');
    expect(await tokens.token()).toBe('tok_1');
    expect(await tokens.token()).toBe('tok_1');
    await new Promise((r) => setTimeout(r, 1000));
    expect(await tokens.token()).toBe('tok_2');
  });

  itWithModel(
    'generates with the local model, and streams text chunks',
    async () => {
      const generation = await client.ai.generate({ prompt: 'Once upon a time', maxTokens: 8 });
      expect(generation.text.length).toBeGreaterThan(0);
      expect(generation.finishReason).toBe('length');
      expect(generation.usage.completionTokens).toBeGreaterThan(0);

      const stream = client.ai.stream({ prompt: 'Once upon a time', maxTokens: 8 });
      const chunks: string[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      expect(chunks.length).toBeGreaterThan(1);
      expect(chunks.join('').length).toBeGreaterThan(0);
      expect(stream.result.finishReason).toBe('length');
      expect(stream.result.usage!.totalTokens).toBeGreaterThan(0);
    },
    60_000,
  );

  itWithModel(
    "speaks OpenAI's API too: models, chat, a chat stream with its usage, embeddings",
    async () => {
      const models = await client.ai.models();
      expect(models).toEqual([{ id: 'stories260K', object: 'model', created: expect.any(Number), owned_by: 'local' }]);
      const completion = await client.ai.chat({ model: 'stories260K', messages: [{ role: 'user', content: 'Tell me a story' }], max_tokens: 6 });
      expect(completion).toMatchObject({
        object: 'chat.completion',
        model: 'stories260K',
        choices: [{ finish_reason: 'length' }],
        usage: { completion_tokens: 6 },
      });
      expect(completion.choices[0].message.content!.length).toBeGreaterThan(0);

      const chunks = [];
      for await (const chunk of client.ai.chatStream({ model: 'stories260K', messages: [{ role: 'user', content: 'Tell me a story' }], max_tokens: 6 }))
        chunks.push(chunk);
      expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { completion_tokens: 6 } });
      expect(chunks.some((c) => c.choices[0]?.delta?.content)).toBe(true);

      const embeddings = await client.ai.embeddings({ model: 'stories260K', input: ['a cat', 'a dog'] });
      expect(embeddings.data.map((d) => d.index)).toEqual([0, 1]);
      expect(embeddings.data[0].embedding.length).toBeGreaterThan(8);

      const unknown = await client.ai.chat({ model: 'gpt-9', messages: [{ role: 'user', content: 'hi' }] }).catch((err: unknown) => err);
      expect(unknown).toBeInstanceOf(ValidationError);
      expect((unknown as ValidationError).reason).toBe('model_not_found');
    },
    60_000,
  );

  describe('webhooks', () => {
    let receiver: Receiver;
    let delivery: { raw: string; signature: string; eventId: string; secret: string };

    beforeAll(async () => {
      receiver = new Receiver();
      await receiver.start();
      const endpoint = await client.webhookEndpoints.create({ url: `${receiver.url}/hooks`, events: ['app.*'] });
      await client.apps.create({ name: 'Hooked' });
      await until(() => receiver.at('/hooks').length > 0, 10_000, 'a delivery');
      const [first] = receiver.at('/hooks');
      delivery = {
        raw: first.raw,
        signature: String(first.headers['x-service-signature']),
        eventId: String(first.headers['x-service-event-id']),
        secret: endpoint.secret,
      };
    });
    afterAll(() => receiver.stop());

    it('verifies a real delivery and returns its event', () => {
      const event = verifyWebhook(delivery.raw, delivery.signature, delivery.secret);
      expect(event).toMatchObject({ id: delivery.eventId, event: 'app.created', data: { name: 'Hooked' } });
      expect(verifyWebhook(Buffer.from(delivery.raw), delivery.signature, delivery.secret).id).toBe(delivery.eventId);
    });

    it('refuses a tampered body, a wrong secret, a stale timestamp and a missing header', () => {
      const t = Number(/t=(\d+)/.exec(delivery.signature)![1]);
      const cases: Array<[string, () => unknown]> = [
        ['tampered', () => verifyWebhook(delivery.raw.replace('Hooked', 'Hacked'), delivery.signature, delivery.secret)],
        ['wrong secret', () => verifyWebhook(delivery.raw, delivery.signature, 'whsec_wrong')],
        ['stale', () => verifyWebhook(delivery.raw, delivery.signature, delivery.secret, { now: t + 301 })],
        ['missing header', () => verifyWebhook(delivery.raw, undefined, delivery.secret)],
      ];
      for (const [, check] of cases) expect(check).toThrow(WebhookSignatureError);
      // The tolerance is the caller's to widen.
      expect(verifyWebhook(delivery.raw, delivery.signature, delivery.secret, { now: t + 301, toleranceSec: 600 }).id).toBe(delivery.eventId);
    });

    it('accepts any of several v1= values (a rotation in progress)', () => {
      const now = Math.floor(Date.now() / 1000);
      const header = signatureHeader(['whsec_old', delivery.secret], now, delivery.raw);
      expect(verifyWebhook(delivery.raw, header, delivery.secret).id).toBe(delivery.eventId);
      expect(verifyWebhook(delivery.raw, header, 'whsec_old').id).toBe(delivery.eventId);
    });

    itWithPython("agrees with the Python SDK both ways, and on the server's own delivery", () => {
      const verifyInPython = `import json, sys
from platform_sdk import verify_webhook
msg = json.load(sys.stdin)
print(verify_webhook(msg["raw"].encode(), msg["header"], msg["secret"])["id"])`;
      // The server's delivery, verified in Python.
      expect(python(verifyInPython, JSON.stringify({ raw: delivery.raw, header: delivery.signature, secret: delivery.secret }))).toBe(delivery.eventId);
      // Signed by the TypeScript SDK, verified in Python.
      const now = Math.floor(Date.now() / 1000);
      const tsHeader = signatureHeader(['whsec_cross'], now, delivery.raw);
      expect(python(verifyInPython, JSON.stringify({ raw: delivery.raw, header: tsHeader, secret: 'whsec_cross' }))).toBe(delivery.eventId);
      // Signed by the Python SDK, verified in TypeScript.
      const pyHeader = python(
        `import sys
from platform_sdk import signature_header
print(signature_header(["whsec_cross"], sys.stdin.read().encode()))`,
        delivery.raw,
      );
      expect(pyHeader).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifyWebhook(delivery.raw, pyHeader, 'whsec_cross').id).toBe(delivery.eventId);
      expect(() => verifyWebhook(delivery.raw, pyHeader, 'whsec_other')).toThrow(WebhookSignatureError);
    });

    it('shows the delivery log with payloads and next tries, and recovers failed deliveries', async () => {
      receiver.modes.set('/failing', { status: 503 });
      const since = new Date(Date.now() - 60_000);
      const endpoint = await client.webhookEndpoints.create({ url: `${receiver.url}/failing`, events: ['app.created'] });
      await client.apps.create({ name: 'Recovered' });
      const logOf = async () => {
        const all = [];
        for await (const d of client.webhookEndpoints.deliveries(endpoint.id)) all.push(d);
        return all;
      };
      await until(async () => (await logOf())[0]?.status === 'failed', 10_000, 'the delivery to fail');
      const [failed] = await logOf();
      expect(failed).toMatchObject({ status: 'failed', nextAttemptAt: null, payload: { event: 'app.created', data: { name: 'Recovered' } } });
      expect(failed.attempts.map((a) => [a.statusCode, a.nextAttemptAt !== null])).toEqual([
        [503, true],
        [503, true],
        [503, true],
        [503, false],
      ]);
      receiver.modes.set('/failing', 'ok');
      await expect(client.webhookEndpoints.recover(endpoint.id, since)).resolves.toEqual({ queued: 1 });
      await until(() => receiver.at('/failing').length === 5, 10_000, 'the recovered delivery');
      await expect(client.webhookEndpoints.recover(endpoint.id, since.toISOString())).resolves.toEqual({ queued: 0 });
      await expect(client.webhookEndpoints.recover(endpoint.id, new Date(Date.now() + 3600_000))).rejects.toThrow(ValidationError);
    });
  });

  it('ships generated types that match the live OpenAPI document', async () => {
    const live = (await app.http().get('/docs/openapi.json').expect(200)).body;
    const committed = readFileSync(GENERATED_TYPES_PATH, 'utf8');
    // On failure: run `npm run sdk:types` and commit libs/sdk/src/generated/openapi.ts.
    expect(committed).toBe(await renderTypes(live));
  });

  it('uploads a file (the same answer when the account has it) and deploys a folder through faults, uploading each missing file once', async () => {
    const hello = new TextEncoder().encode('hello from the SDK');
    const hash = createHash('sha256').update(hello).digest('hex');
    expect(await client.uploadFile(hello)).toEqual({ sha256: hash, size: hello.length });
    expect(await client.uploadFile(hello, hash)).toEqual({ sha256: hash, size: hello.length });
    await expect(client.uploadFile(hello, createHash('sha256').update('other').digest('hex'))).rejects.toMatchObject({
      status: 400,
      reason: 'digest_mismatch',
    });

    const dir = mkdtempSync(join(tmpdir(), 'sdk-site-'));
    const outside = mkdtempSync(join(tmpdir(), 'sdk-secret-'));
    try {
      mkdirSync(join(dir, 'assets'));
      mkdirSync(join(dir, '.git'));
      writeFileSync(join(dir, 'index.html'), '<!doctype html><h1>SDK</h1>');
      writeFileSync(join(dir, 'assets/app.1a2b3c4d.js'), 'console.log("app")');
      writeFileSync(join(dir, 'assets/copy.js'), 'console.log("app")'); // the same content at two paths: uploaded once
      writeFileSync(join(dir, '.git/config'), '[core]'); // never deployed
      writeFileSync(join(outside, 'id_rsa'), 'not for the web');
      symlinkSync(join(outside, 'id_rsa'), join(dir, 'key.txt')); // links are not followed
      const { appId } = await client.apps.create({ name: 'SDK folder' });
      const proxy = await startFaultProxy(app.url);
      try {
        // The first deploy (files_missing) goes through, the first upload is stored and then answered 500 (retried: 200).
        proxy.plan = ['ok', '500-after'];
        const viaProxy = new PlatformClient({ apiKey, baseUrl: proxy.url, retryBaseMs: 20 });
        const progress: string[] = [];
        const result = await viaProxy.deployDirectory(dir, { appId, spa: true, concurrency: 1, onProgress: (p) => progress.push(p.phase) });
        expect(result).toMatchObject({
          files: 3,
          uploaded: { files: 2 },
          deployment: { appId, env: 'production', files: { count: 3 }, config: { spa: true } },
        });
        const puts = proxy.seen.filter((r) => r.method === 'PUT').map((r) => r.path);
        expect(puts).toHaveLength(3); // two files, the first twice (its retry)
        expect(new Set(puts).size).toBe(2);
        expect(proxy.seen.filter((r) => r.method === 'POST' && r.path === '/v1/apps/deploy')).toHaveLength(2);
        expect(progress.filter((p) => p === 'hashing')).toHaveLength(3);
        expect(progress.filter((p) => p === 'uploading')).toHaveLength(2);
        expect(progress.at(-1)).toBe('deployed');
        const deployment = await client.deployments.get(result.deployment.deploymentId);
        expect(deployment.files).toEqual({ count: 3, bytes: result.bytes });
      } finally {
        await proxy.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('builds to ESM and CommonJS, each with type declarations', () => {
    // Into a copy of the package, so that the two e2e projects never build over each other.
    const out = mkdtempSync(join(tmpdir(), 'sdk-build-'));
    try {
      copyFileSync(join(SDK_DIR, 'package.json'), join(out, 'package.json'));
      execFileSync(process.execPath, [join(SDK_DIR, 'scripts/build.mjs'), out], { stdio: 'pipe' });
      const pkg = JSON.parse(readFileSync(join(out, 'package.json'), 'utf8'));
      const { import: esm, require: cjs } = pkg.exports['.'];
      for (const file of [esm.types, esm.default, cjs.types, cjs.default]) expect(existsSync(join(out, file))).toBe(true);
      // Loaded as a consumer would, in a fresh Node process: require() through the exports map, and import().
      const load = (args: string[]) => execFileSync(process.execPath, args, { cwd: '/', encoding: 'utf8' }).trim();
      const probe = 'typeof m.PlatformClient + " " + typeof m.verifyWebhook + " " + typeof m.PlatformError';
      expect(load(['-e', `const m = require(${JSON.stringify(out)}); console.log(${probe})`])).toBe('function function function');
      expect(load(['--input-type=module', '-e', `const m = await import(${JSON.stringify(join(out, esm.default))}); console.log(${probe})`])).toBe(
        'function function function',
      );
      // No runtime dependency beyond Node itself.
      expect(pkg.dependencies).toBeUndefined();
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});
