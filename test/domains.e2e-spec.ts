import { verify } from '../libs/webhook-signature/index.js';
import { AnalyticsBuffer } from '../src/analytics/analytics-buffer.js';
import { DomainRecheck } from '../src/domains/domain-recheck.service.js';
import { SignupService } from '../src/sites/signup.service.js';
import { SignupTokens } from '../src/sites/signup-token.js';
import { ApiClient, expectErrorBody, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { TestDnsServer } from './support/dns-server.js';
import { uploadAll } from './support/files.js';
import { describeUnless, UNLESS_REDIS } from './support/skips.js';
import { startTestApp, target, TestApp } from './support/test-app.js';
import { Receiver, until } from './support/webhook-receiver.js';

const SITES = 'apps.example.test';
/** Not under example.test: sites must not share the API's registrable domain (a start-up rule). */
const API_HOST = 'api.platform.test';

describe(`custom domains (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;
  const dns = new TestDnsServer();
  const receiver = new Receiver();
  let endpointSecret: string;

  beforeAll(async () => {
    await dns.start();
    await receiver.start();
    app = await startTestApp({
      env: { ...NO_RATE_LIMIT, SITES_DOMAIN: SITES, PUBLIC_URL: `https://${API_HOST}`, DNS_SERVERS: dns.address, WEBHOOK_RETRY_BASE_MS: '50' },
    });
    dev = await newAccountClient(app);
    endpointSecret = (await dev.post('/v1/webhook-endpoints', { url: `${receiver.url}/domains`, events: ['domain.*'] }).expect(201)).body.secret;
  });
  afterAll(async () => {
    await app.close();
    await receiver.stop();
    await dns.stop();
  });

  /** A published app of `client`'s, with a deployment. */
  const publishedApp = async (client: ApiClient, slug: string) => {
    const created = (await client.post('/v1/apps', { name: `App ${slug}`, slug }).expect(201)).body;
    const deploymentId = (await client.post('/v1/apps/deploy', { appId: created.appId, env: 'production' }).expect(200)).body.deploymentId as string;
    await client.post(`/v1/apps/${created.appId}/publish`, {}).expect(200);
    return { appId: created.appId as string, deploymentId };
  };
  const claim = async (client: ApiClient, appId: string, hostname: string) => (await client.post(`/v1/apps/${appId}/domains`, { hostname }).expect(201)).body;
  const verifyNow = (client: ApiClient, id: string) => client.post(`/v1/domains/${id}/verify`);
  const visit = (host: string, path = '/', accept = 'application/json') => app.http().get(path).set('host', host).set('accept', accept);
  const ask = (domain?: string) => app.http().get(`/internal/tls/ask${domain === undefined ? '' : `?domain=${encodeURIComponent(domain)}`}`);
  const deliveries = (kind: string) => receiver.at('/domains').filter((r) => JSON.parse(r.raw).event === kind);

  it('claims a name: 201 with the TXT challenge and the CNAME target, stored in ASCII; lists and reads it for its account only', async () => {
    const { appId } = await publishedApp(dev, 'claim-shop');
    const domain = await claim(dev, appId, '  Shop.Example.COM. ');
    expect(domain).toEqual({
      id: expect.stringMatching(/^dom_[0-9A-Z]{26}$/),
      hostname: 'shop.example.com',
      appId,
      status: 'pending',
      verification: { type: 'TXT', name: '_platform-challenge.shop.example.com', value: expect.stringMatching(/^[A-Za-z0-9]{32}$/) },
      target: { type: 'CNAME', name: 'shop.example.com', value: `claim-shop.${SITES}` },
      configured: false,
      lastCheck: null,
      verifiedAt: null,
      nextCheckAt: new Date(Date.parse(domain.createdAt) + 60_000).toISOString(),
      proofMissingSince: null,
      createdAt: expect.any(String),
    });
    const [row] = await app.query(`SELECT account_id, hostname, status, verification_token FROM domains WHERE id = $1`, [domain.id]);
    expect(row).toEqual({ account_id: dev.accountId, hostname: 'shop.example.com', status: 'pending', verification_token: domain.verification.value });
    // An internationalised name is stored, and shown, in its ASCII form.
    expect((await claim(dev, appId, 'Bücher.example')).hostname).toBe('xn--bcher-kva.example');

    expect((await dev.get(`/v1/domains/${domain.id}`).expect(200)).body).toEqual(domain);
    const list = (await dev.get(`/v1/apps/${appId}/domains`).expect(200)).body;
    expect(list.data.map((d: { hostname: string }) => d.hostname)).toEqual(['xn--bcher-kva.example', 'shop.example.com']);
    expect(list.nextCursor).toBeNull();

    // Another account sees none of it.
    const other = await newAccountClient(app);
    expectErrorBody((await other.get(`/v1/domains/${domain.id}`).expect(404)).body, 404, domain.id);
    await other.post(`/v1/domains/${domain.id}/verify`).expect(404);
    await other.delete(`/v1/domains/${domain.id}`).expect(404);
    await other.get(`/v1/apps/${appId}/domains`).expect(404);
    await other.post(`/v1/apps/${appId}/domains`, { hostname: 'mine.example.com' }).expect(404);
  });

  it('refuses a name that is not a DNS name, an IP, localhost or the platform’s own (400 naming the reason); a duplicate (409); an 11th (409)', async () => {
    const { appId } = await publishedApp(dev, 'rules-app');
    for (const [hostname, reason] of [
      ['https://www.example.com/', 'hostname_invalid'],
      ['www.example.com:8443', 'hostname_invalid'],
      ['*.example.com', 'hostname_invalid'],
      ['intranet', 'hostname_invalid'],
      ['bad_label.example.com', 'hostname_invalid'],
      ['192.0.2.10', 'hostname_ip'],
      ['[2001:db8::1]', 'hostname_ip'],
      ['0x7f.1', 'hostname_ip'],
      ['localhost', 'hostname_localhost'],
      ['admin.localhost', 'hostname_localhost'],
      [SITES, 'hostname_reserved'],
      [`someone-else.${SITES}`, 'hostname_reserved'],
      [`DEEP.Name.${SITES.toUpperCase()}.`, 'hostname_reserved'],
      [API_HOST, 'hostname_reserved'],
    ]) {
      const res = await dev.post(`/v1/apps/${appId}/domains`, { hostname });
      expect({ hostname, status: res.status, reason: res.body.reason }).toEqual({ hostname, status: 400, reason });
      expectErrorBody(res.body, 400);
    }
    const missing = await dev.post(`/v1/apps/${appId}/domains`, {}).expect(400);
    expect(missing.body.message).toMatch(/hostname/);
    await dev.post(`/v1/apps/${appId}/domains`, { hostname: 'x.example.com', extra: true }).expect(400);

    await claim(dev, appId, 'dup.example.com');
    const dup = await dev.post(`/v1/apps/${appId}/domains`, { hostname: 'DUP.example.com' }).expect(409);
    expect(dup.body).toMatchObject({ code: 409, reason: 'domain_exists', message: 'dup.example.com is already one of your domains' });
    for (let i = 2; i <= 10; i++) await claim(dev, appId, `n${i}.example.com`);
    const eleventh = await dev.post(`/v1/apps/${appId}/domains`, { hostname: 'n11.example.com' }).expect(409);
    expect(eleventh.body).toMatchObject({ reason: 'domain_limit_reached', message: expect.stringContaining('10 domains') });
    expect((await app.query(`SELECT count(*)::int AS n FROM domains WHERE app_id = $1`, [appId]))[0]).toEqual({ n: 10 });
  });

  it('stays pending while the TXT record is missing, wrong or unreadable, saying what was found; verifies once it appears; then serves the app by Host', async () => {
    const site = await publishedApp(dev, 'verify-shop');
    const domain = await claim(dev, site.appId, 'www.verify.example');
    const challenge = domain.verification.name;
    // Not verified: the name is nobody's site (the API answers, without a route).
    expect((await visit('www.verify.example')).status).toBe(404);
    expect((await ask('www.verify.example')).status).toBe(404);

    const noRecord = (await verifyNow(dev, domain.id).expect(200)).body;
    expect(noRecord).toMatchObject({ status: 'pending', configured: false, verifiedAt: null });
    expect(noRecord.lastCheck).toEqual({ checkedAt: expect.any(String), result: 'no_record', message: `No TXT record at ${challenge} yet`, found: [] });

    dns.set(challenge, { txt: ['stale-value', ['split ', 'in chunks']] });
    const wrong = (await verifyNow(dev, domain.id).expect(200)).body;
    expect(wrong.status).toBe('pending');
    expect(wrong.lastCheck).toMatchObject({
      result: 'wrong_value',
      found: ['stale-value', 'split in chunks'],
      message: expect.stringContaining('2 other values'),
    });

    dns.failing.add(challenge);
    const failing = (await verifyNow(dev, domain.id).expect(200)).body;
    expect(failing.lastCheck).toMatchObject({ result: 'resolver_error', message: expect.stringContaining('ESERVFAIL') });
    dns.failing.delete(challenge);

    // A resolver that never answers: bounded, and said so.
    dns.silent.add(challenge);
    const started = Date.now();
    const silent = (await verifyNow(dev, domain.id).expect(200)).body;
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(silent).toMatchObject({ status: 'pending', lastCheck: { result: 'resolver_error', message: expect.stringContaining('timed out') } });
    dns.silent.delete(challenge);
    expect((await app.query(`SELECT status FROM domains WHERE id = $1`, [domain.id]))[0]).toEqual({ status: 'pending' });

    // The record appears (beside another service's value), and the name points at the target.
    dns.set(challenge, { txt: ['google-site-verification=abc', domain.verification.value] });
    dns.set('www.verify.example', { cname: domain.target.value });
    const verified = (await verifyNow(dev, domain.id).expect(200)).body;
    expect(verified).toMatchObject({ status: 'verified', configured: true, verifiedAt: expect.any(String), proofMissingSince: null });
    // Its proof is looked for again in a day.
    expect(Date.parse(verified.nextCheckAt) - Date.parse(verified.verifiedAt)).toBe(24 * 3600_000);
    expect(verified.lastCheck).toMatchObject({ result: 'verified', found: ['google-site-verification=abc', domain.verification.value] });

    // domain.verified reaches the receiver, signed.
    await until(() => deliveries('domain.verified').length > 0, 10_000, 'domain.verified delivery');
    const { raw, headers } = deliveries('domain.verified')[0];
    expect(() => verify(raw, headers['x-service-signature'] as string, endpointSecret)).not.toThrow();
    expect(() => verify(raw, headers['x-service-signature'] as string, 'whsec_wrong')).toThrow();
    expect(JSON.parse(raw)).toMatchObject({ event: 'domain.verified', data: { domainId: domain.id, appId: site.appId, hostname: 'www.verify.example' } });

    // Served exactly as <slug>.<SITES_DOMAIN>: whatever the Host's case, port or trailing dot.
    for (const host of ['www.verify.example', 'WWW.Verify.Example', 'www.verify.example.', 'www.verify.example:443']) {
      const page = await visit(host, '/', 'text/html');
      expect({ host, status: page.status, deployment: page.headers['x-deployment-id'] }).toEqual({ host, status: 200, deployment: site.deploymentId });
      expect(page.text).toContain('action="/signup"');
    }
    await visit('www.verify.example', '/thanks', 'text/html').expect(200);
    // Not the API, not the portal, and no other app by id.
    expect((await visit('www.verify.example', '/v1/apps')).status).toBe(404);
    expect((await visit('www.verify.example', '/portal/login', 'text/html')).status).toBe(404);
    expect((await app.http().get(`/p/${site.appId}/`)).status).toBe(404);
    // Look-alike hosts are not it.
    expect((await visit('www.verify.example.evil.test')).status).toBe(404);
    expect((await visit('evilwww.verify.example')).status).toBe(404);
  });

  it('counts the visit and signs a visitor up through the custom domain; 410 once unpublished; deleting it stops it', async () => {
    const site = await publishedApp(dev, 'served-shop');
    const domain = await claim(dev, site.appId, 'served.example.org');
    dns.set(domain.verification.name, { txt: [domain.verification.value] });
    await verifyNow(dev, domain.id).expect(200);

    await visit('served.example.org', '/', 'text/html').set('user-agent', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36').expect(200);
    await app.server.app.get(AnalyticsBuffer).flush();
    const [views] = await app.query<{ n: number }>(`SELECT count(*)::int AS n FROM analytics_events WHERE app_id = $1`, [site.appId]);
    expect(views.n).toBe(1);

    const token = app.server.app.get(SignupTokens).issue(site.deploymentId, Date.now() - 5_000);
    const signup = await app
      .http()
      .post('/signup')
      .set('host', 'served.example.org')
      .type('form')
      .send({ email: 'visitor@example.com', website: '', token })
      .expect(303);
    expect(signup.headers.location).toBe('/thanks');
    await app.server.app.get(SignupService).settled();
    expect(await app.query(`SELECT email FROM users WHERE app_id = $1`, [site.appId])).toEqual([{ email: 'visitor@example.com' }]);

    await dev.post(`/v1/apps/${site.appId}/unpublish`, {}).expect(200);
    const gone = await visit('served.example.org');
    expect(gone.status).toBe(410);
    expect(gone.body).toMatchObject({ code: 410, reason: 'app_unpublished' });
    expect((await visit('served.example.org', '/', 'text/html')).text).toContain('This app was taken down');
    // No new certificate for a name that serves nothing but a 410 (one got while it was published keeps serving the page).
    expect((await ask('served.example.org')).status).toBe(404);

    await dev.delete(`/v1/domains/${domain.id}`).expect(204);
    expect((await visit('served.example.org')).status).toBe(404);
    expect((await ask('served.example.org')).status).toBe(404);
    await until(() => deliveries('domain.deleted').some((d) => JSON.parse(d.raw).data.domainId === domain.id), 10_000, 'domain.deleted delivery');
    expect(await app.query(`SELECT id FROM domains WHERE id = $1`, [domain.id])).toEqual([]);
  });

  it('serves a published app’s own files through its custom domain, as on <slug>.<SITES_DOMAIN>', async () => {
    const site = await publishedApp(dev, 'bundle-shop');
    const files = await uploadAll(app, dev, { '/index.html': '<h1>Bundle shop</h1>', '/app.3f9a1c2b.js': 'console.log("shop")' });
    const bundle = (await dev.post('/v1/apps/deploy', { appId: site.appId, env: 'production', files, config: { spa: true } }).expect(200)).body;
    await dev.post(`/v1/apps/${site.appId}/publish`, { deploymentId: bundle.deploymentId }).expect(200);
    const domain = await claim(dev, site.appId, 'shop.example.org');
    dns.set(domain.verification.name, { txt: [domain.verification.value] });
    await verifyNow(dev, domain.id).expect(200);
    for (const host of ['shop.example.org', `bundle-shop.${SITES}`]) {
      const page = await visit(host, '/cart/3', 'text/html');
      expect({ host, status: page.status, text: page.text, robots: page.headers['x-robots-tag'] }).toEqual({
        host,
        status: 200,
        text: '<h1>Bundle shop</h1>',
        robots: undefined,
      });
      const script = await visit(host, '/app.3f9a1c2b.js', '*/*');
      expect([script.headers['content-type'], script.headers['cache-control']]).toEqual([
        'text/javascript; charset=utf-8',
        'public, max-age=31536000, immutable',
      ]);
      expect((await visit(host, '/_platform/analytics.js', '*/*')).text).toContain('/_platform/collect');
      expect((await visit(host, '/v1/apps')).text).toBe('<h1>Bundle shop</h1>'); // the app's own route, never the API
    }
  });

  it('answers Caddy’s ask with 200 only for names that serve something now and 404 (and nothing more) for others', async () => {
    const published = await publishedApp(dev, 'ask-published');
    // An app taken down: its slug and its verified domain serve a 410, nothing a certificate is needed for.
    const gone = await publishedApp(dev, 'ask-gone');
    const goneDomain = await claim(dev, gone.appId, 'gone.example.net');
    dns.set(goneDomain.verification.name, { txt: [goneDomain.verification.value] });
    await verifyNow(dev, goneDomain.id).expect(200);
    expect((await ask('gone.example.net')).status).toBe(200);
    await dev.post(`/v1/apps/${gone.appId}/unpublish`, {}).expect(200);
    const draft = (await dev.post('/v1/apps', { name: 'Draft', slug: 'ask-draft' }).expect(201)).body;
    const domain = await claim(dev, published.appId, 'ask.example.net');
    const pending = await claim(dev, published.appId, 'pending.example.net');
    dns.set(domain.verification.name, { txt: [domain.verification.value] });
    await verifyNow(dev, domain.id).expect(200);

    // A deployment's own label (dep-…, as its site origin names it).
    const deploymentLabel = published.deploymentId.toLowerCase().replace('_', '-');
    for (const name of ['ask.example.net', 'ASK.Example.NET.', `ask-published.${SITES}`, API_HOST]) {
      const res = await ask(name);
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
    }
    expect((await ask('ASK.Example.NET.')).body).toEqual({ domain: 'ask.example.net' });
    const refused = await ask(pending.hostname);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({
      error: true,
      code: 404,
      message: 'This server serves no site under that name',
      reason: 'tls_name_unknown',
      requestId: expect.any(String),
    });
    for (const name of [
      undefined,
      '',
      'nobody.example.net',
      `ask-draft.${SITES}`,
      // A live deployment's own labels: not without TLS_ASK_DEPLOYMENT_LABELS (see tls-ask.e2e-spec.ts).
      `${deploymentLabel}.${SITES}`,
      `production--ask-published.${SITES}`,
      'gone.example.net',
      `ask-gone.${SITES}`,
      `staging--ask-published.${SITES}`,
      `dep-${'0'.repeat(26)}.${SITES}`,
      `nobody.${SITES}`,
      `a.b.${SITES}`,
      'ask.example.net:443',
      '192.0.2.1',
      'x'.repeat(300),
    ]) {
      const res = await ask(name);
      expect({ name, status: res.status, body: res.body.reason }).toEqual({ name, status: 404, body: 'tls_name_unknown' });
    }
    // The same answer whoever asks, and no body beyond the name: pending claims and drafts of any account look alike.
    expect((await ask(pending.hostname)).body).toEqual({ ...refused.body, requestId: expect.any(String) });
    await dev.delete(`/v1/apps/${draft.appId}`).expect(204);
  });

  it('lets the first account to verify own a name: a second claim gets 409 on verify, a third at creation; the owner’s deletion frees it', async () => {
    const first = await newAccountClient(app);
    const second = await newAccountClient(app);
    const third = await newAccountClient(app);
    const a = await publishedApp(first, 'race-first');
    const b = await publishedApp(second, 'race-second');
    const claimA = await claim(first, a.appId, 'race.example.com');
    const claimB = await claim(second, b.appId, 'race.example.com');
    // Both records at the name (a TXT name may hold several values): both would verify; one wins.
    dns.set('_platform-challenge.race.example.com', { txt: [claimA.verification.value, claimB.verification.value] });
    const [resA, resB] = await Promise.all([verifyNow(first, claimA.id), verifyNow(second, claimB.id)]);
    expect([resA.status, resB.status].sort()).toEqual([200, 409]);
    const aWon = resA.status === 200;
    const [winner, winnerApp, winnerClaim] = aWon ? [first, a, claimA] : [second, b, claimB];
    const [loser, loserApp, loserClaim] = aWon ? [second, b, claimB] : [first, a, claimA];
    expect((aWon ? resB : resA).body).toMatchObject({ code: 409, reason: 'domain_taken' });
    expect((await loser.get(`/v1/domains/${loserClaim.id}`).expect(200)).body).toMatchObject({ status: 'pending', lastCheck: { result: 'taken' } });
    expect(await app.query(`SELECT account_id FROM domains WHERE hostname = 'race.example.com' AND status = 'verified'`)).toEqual([
      { account_id: winner.accountId },
    ]);
    expect((await visit('race.example.com', '/', 'text/html')).headers['x-deployment-id']).toBe(winnerApp.deploymentId);
    // Once owned, a new claim is refused at once.
    const c = await publishedApp(third, 'race-third');
    expect((await third.post(`/v1/apps/${c.appId}/domains`, { hostname: 'Race.Example.com' }).expect(409)).body.reason).toBe('domain_taken');

    await winner.delete(`/v1/domains/${winnerClaim.id}`).expect(204);
    expect((await verifyNow(loser, loserClaim.id).expect(200)).body.status).toBe('verified');
    expect((await visit('race.example.com', '/', 'text/html')).headers['x-deployment-id']).toBe(loserApp.deploymentId);
  });

  it('re-checks pending domains on the schedule: verified when the record appears, every minute then hourly, failed after 7 days', async () => {
    // The other tests' pending domains are not this test's business.
    await app.query(`UPDATE domains SET next_check_at = now() + interval '1 day' WHERE status = 'pending'`);
    const site = await publishedApp(dev, 'worker-shop');
    const later = await claim(dev, site.appId, 'later.example.org');
    const never = await claim(dev, site.appId, 'never.example.org');
    const recheck = app.server.app.get(DomainRecheck);
    const due = (id: string, createdAgo = '0 seconds') =>
      app.query(`UPDATE domains SET next_check_at = now() - interval '1 second', created_at = now() - $2::interval WHERE id = $1`, [id, createdAgo]);
    const row = async (id: string) =>
      (
        await app.query<{ status: string; next_in_s: number | null; result: string | null }>(
          `SELECT status, round(extract(epoch FROM next_check_at - now()))::int AS next_in_s, last_check->>'result' AS result FROM domains WHERE id = $1`,
          [id],
        )
      )[0];

    // A round of checks. The worker's own 15-second tick may run one at the same moment and take a domain first (runDue
    // then waits for that round and checks what is left): the rows, not this round's count, say what was checked.
    const checkDue = () => recheck.runDue();

    // Nothing is due yet: the first check is a minute after the claim.
    expect(await recheck.runDue()).toBe(0);

    dns.set(later.verification.name, { txt: [later.verification.value] });
    await due(later.id);
    await due(never.id);
    await checkDue();
    // Verified: re-checked daily from now on.
    expect(await row(later.id)).toMatchObject({ status: 'verified', result: 'verified' });
    expect(Math.abs((await row(later.id)).next_in_s! - 86_400)).toBeLessThanOrEqual(2);
    expect(await row(never.id)).toMatchObject({ status: 'pending', result: 'no_record' });
    expect((await row(never.id)).next_in_s).toBeGreaterThanOrEqual(58);
    expect((await row(never.id)).next_in_s).toBeLessThanOrEqual(60);
    await until(() => deliveries('domain.verified').some((d) => JSON.parse(d.raw).data.domainId === later.id), 10_000, 'domain.verified by the worker');
    expect((await visit('later.example.org', '/', 'text/html')).status).toBe(200);

    // Past its first hour: hourly.
    await due(never.id, '2 hours');
    await checkDue();
    expect((await row(never.id)).next_in_s).toBeGreaterThanOrEqual(3598);
    expect((await row(never.id)).next_in_s).toBeLessThanOrEqual(3600);

    // Seven days without the record: failed, no more checks.
    await due(never.id, '7 days 1 second');
    await checkDue();
    expect(await row(never.id)).toEqual({ status: 'failed', next_in_s: null, result: 'no_record' });
    await until(() => deliveries('domain.failed').some((d) => JSON.parse(d.raw).data.domainId === never.id), 10_000, 'domain.failed delivery');
    expect(JSON.parse(deliveries('domain.failed')[0].raw).data).toEqual({ domainId: never.id, appId: site.appId, hostname: 'never.example.org' });
    await due(never.id);
    expect(await recheck.runDue()).toBe(0);
    // A failed domain whose record finally appears can still be verified by hand.
    dns.set(never.verification.name, { txt: [never.verification.value] });
    expect((await verifyNow(dev, never.id).expect(200)).body.status).toBe('verified');
  });

  it('re-checks verified domains daily and on demand: the TXT record gone for the grace period lapses the name (no longer served, no certificate), and another account takes it', async () => {
    // The other tests' domains are not this test's business.
    await app.query(`UPDATE domains SET next_check_at = now() + interval '1 day' WHERE status IN ('pending', 'verified')`);
    const other = await newAccountClient(app);
    const mine = await publishedApp(dev, 'lapse-first');
    const theirs = await publishedApp(other, 'lapse-second');
    const name = 'lapse.example.net';
    const domain = await claim(dev, mine.appId, name);
    const recheck = app.server.app.get(DomainRecheck);
    const due = (id: string) => app.query(`UPDATE domains SET next_check_at = now() - interval '1 second' WHERE id = $1`, [id]);
    const missingFor = (id: string, ago: string) => app.query(`UPDATE domains SET proof_missing_since = now() - $2::interval WHERE id = $1`, [id, ago]);
    const row = async (id: string) =>
      (
        await app.query<{ status: string; next_in_h: number | null; missing: boolean; result: string }>(
          `SELECT status, round(extract(epoch FROM next_check_at - now()) / 3600)::int AS next_in_h, proof_missing_since IS NOT NULL AS missing,
                  last_check->>'result' AS result FROM domains WHERE id = $1`,
          [id],
        )
      )[0];
    const served = async () => ({ site: (await visit(name, '/', 'text/html')).status, tls: (await ask(name)).status });

    dns.set(domain.verification.name, { txt: [domain.verification.value] });
    expect((await verifyNow(dev, domain.id).expect(200)).body).toMatchObject({ status: 'verified', proofMissingSince: null });
    expect(await row(domain.id)).toEqual({ status: 'verified', next_in_h: 24, missing: false, result: 'verified' });
    // The daily re-check finds the record: verified, next in a day.
    await due(domain.id);
    await recheck.runDue();
    expect(await row(domain.id)).toEqual({ status: 'verified', next_in_h: 24, missing: false, result: 'verified' });

    // The record removed: the re-check starts the grace period, hourly checks; the name still serves meanwhile.
    dns.set(domain.verification.name, undefined);
    await due(domain.id);
    await recheck.runDue();
    expect(await row(domain.id)).toEqual({ status: 'verified', next_in_h: 1, missing: true, result: 'no_record' });
    expect((await dev.get(`/v1/domains/${domain.id}`).expect(200)).body.proofMissingSince).toEqual(expect.any(String));
    expect(await served()).toEqual({ site: 200, tls: 200 });
    // Another account cannot take a name whose owner is within the grace period.
    expect((await other.post(`/v1/apps/${theirs.appId}/domains`, { hostname: name }).expect(409)).body.reason).toBe('domain_taken');
    // The record back (a DNS change fixed): the grace period ends, daily checks again.
    dns.set(domain.verification.name, { txt: [domain.verification.value] });
    await due(domain.id);
    await recheck.runDue();
    expect(await row(domain.id)).toEqual({ status: 'verified', next_in_h: 24, missing: false, result: 'verified' });

    // Gone again, for 71 of the 72 hours: still verified, checked again within the hour.
    dns.set(domain.verification.name, undefined);
    await verifyNow(dev, domain.id).expect(200); // on demand: starts the grace period as the daily check does
    expect(await row(domain.id)).toMatchObject({ status: 'verified', missing: true });
    await missingFor(domain.id, '71 hours');
    await due(domain.id);
    await recheck.runDue();
    expect(await row(domain.id)).toEqual({ status: 'verified', next_in_h: 1, missing: true, result: 'no_record' });
    expect(await served()).toEqual({ site: 200, tls: 200 });

    // The whole grace period: lapsed, no longer served, no certificate, no more checks; domain.lapsed and an audit entry.
    await missingFor(domain.id, '72 hours 1 second');
    await due(domain.id);
    await recheck.runDue();
    expect(await row(domain.id)).toEqual({ status: 'lapsed', next_in_h: null, missing: true, result: 'no_record' });
    expect(await served()).toEqual({ site: 404, tls: 404 });
    expect((await dev.get(`/v1/domains/${domain.id}`).expect(200)).body.status).toBe('lapsed');
    await until(() => deliveries('domain.lapsed').some((d) => JSON.parse(d.raw).data.domainId === domain.id), 10_000, 'domain.lapsed delivery');
    expect(JSON.parse(deliveries('domain.lapsed')[0].raw).data).toEqual({ domainId: domain.id, appId: mine.appId, hostname: name });
    const audit = (await dev.get(`/v1/audit-log?action=domain.lapsed`).expect(200)).body.data;
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'domain.lapsed',
        target: { type: 'domain', id: domain.id },
        actor: expect.objectContaining({ type: 'operator', id: 'system' }),
      }),
    ]);
    await due(domain.id);
    expect(await recheck.runDue()).toBe(0);

    // Whoever proves control now owns it: another account claims, verifies and serves its app there.
    const taken = await claim(other, theirs.appId, name);
    dns.set(taken.verification.name, { txt: [taken.verification.value] });
    expect((await verifyNow(other, taken.id).expect(200)).body.status).toBe('verified');
    expect((await visit(name, '/', 'text/html')).headers['x-deployment-id']).toBe(theirs.deploymentId);
    expect((await ask(name)).status).toBe(200);
    // The first account's record back, too late: the name is the other's now.
    dns.set(domain.verification.name, { txt: [domain.verification.value, taken.verification.value] });
    expect((await verifyNow(dev, domain.id).expect(409)).body.reason).toBe('domain_taken');
    expect(await row(domain.id)).toMatchObject({ status: 'lapsed', result: 'taken' });
  });

  it('deletes an app’s domains with it (domain.deleted each) and stops serving them', async () => {
    const site = await publishedApp(dev, 'doomed-shop');
    const domain = await claim(dev, site.appId, 'doomed.example.org');
    dns.set(domain.verification.name, { txt: [domain.verification.value] });
    await verifyNow(dev, domain.id).expect(200);
    expect((await visit('doomed.example.org', '/', 'text/html')).status).toBe(200);
    await dev.delete(`/v1/apps/${site.appId}`).expect(204);
    expect((await visit('doomed.example.org')).status).toBe(404);
    expect((await ask('doomed.example.org')).status).toBe(404);
    expect(await app.query(`SELECT id FROM domains WHERE app_id = $1`, [site.appId])).toEqual([]);
    await until(() => deliveries('domain.deleted').some((d) => JSON.parse(d.raw).data.domainId === domain.id), 10_000, 'domain.deleted with the app');
  });
});

describeUnless(UNLESS_REDIS)('custom domains on two instances (postgres + redis)', () => {
  let first: TestApp;
  let second: TestApp;
  const dns = new TestDnsServer();

  beforeAll(async () => {
    await dns.start();
    first = await startTestApp({ env: { ...NO_RATE_LIMIT, SITES_DOMAIN: SITES, DNS_SERVERS: dns.address } });
    // The same database and Redis prefix: another API instance of the same deployment.
    second = await startTestApp({ reuse: { dataDir: first.dataDir, env: first.env }, keep: true });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await dns.stop();
  });

  it('serves a domain verified on one instance from the other at once, and stops it there when it is deleted on the first', async () => {
    const dev = await newAccountClient(first);
    const created = (await dev.post('/v1/apps', { name: 'Two instances', slug: 'two-instances' }).expect(201)).body;
    const deploymentId = (await dev.post('/v1/apps/deploy', { appId: created.appId, env: 'production' }).expect(200)).body.deploymentId;
    await dev.post(`/v1/apps/${created.appId}/publish`, {}).expect(200);
    const domain = (await dev.post(`/v1/apps/${created.appId}/domains`, { hostname: 'twice.example.com' }).expect(201)).body;
    const visitSecond = () => second.http().get('/').set('host', 'twice.example.com').set('accept', 'text/html');
    expect((await visitSecond()).status).toBe(404);

    dns.set(domain.verification.name, { txt: [domain.verification.value] });
    await dev.post(`/v1/domains/${domain.id}/verify`).expect(200);
    // The change reaches the other instance through Redis, not its 5-minute reload.
    await until(async () => (await visitSecond()).status === 200, 5_000, 'the second instance to serve the domain');
    expect((await visitSecond()).headers['x-deployment-id']).toBe(deploymentId);
    await second.http().get('/internal/tls/ask?domain=twice.example.com').expect(200);

    await dev.delete(`/v1/domains/${domain.id}`).expect(204);
    // The ask checks the database: no certificate from any instance, even before the message arrives.
    await second.http().get('/internal/tls/ask?domain=twice.example.com').expect(404);
    await until(async () => (await visitSecond()).status === 404, 5_000, 'the second instance to stop serving the domain');
  });
});
