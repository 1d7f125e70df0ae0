import { randomBytes } from 'node:crypto';
import { AUDIT_ACTION_NAMES, AuditAction } from '../src/audit/audit-actions.js';
import { AuditLog } from '../src/audit/audit-log.service.js';
import { MembersService } from '../src/members/members.service.js';
import { UnlockLinks } from '../src/portal/account/unlock-links.service.js';
import { NO_RATE_LIMIT } from './support/api-client.js';
import { TestDnsServer } from './support/dns-server.js';
import { addMember } from './support/members.js';
import { csrfOf, PORTAL_PASSWORD, portalSession, PortalSession } from './support/portal-session.js';
import { ADMIN_TOKEN, startTestApp, target, TestApp } from './support/test-app.js';

const CLIENT_IP = '203.0.113.77';
const unique = (name: string) => `${name}-${randomBytes(4).toString('hex')}@example.com`;

interface Entry {
  id: string;
  at: string;
  actor: { type: string; id: string; label: string };
  action: string;
  target: { type: string; id: string };
  ip: string | null;
}

describe(`audit log (${target})`, () => {
  let app: TestApp;
  let owner: PortalSession;
  let email: string;
  const dns = new TestDnsServer();
  const bearer = () => ({ authorization: `Bearer ${owner.apiKey}`, 'x-forwarded-for': CLIENT_IP });

  beforeAll(async () => {
    await dns.start();
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, TRUST_PROXY: 'true', DNS_SERVERS: dns.address, WEBHOOK_ALLOW_PRIVATE: 'true' } });
    email = unique('owner');
    owner = await portalSession(app, email);
  });
  afterAll(async () => {
    await app.close();
    await dns.stop();
  });

  const entries = async (): Promise<Entry[]> => (await app.http().get('/v1/audit-log?limit=100').set(bearer()).expect(200)).body.data;
  const api = () => app.http();
  const signIn = async (password: string) => {
    const form = await api().get('/portal/login').expect(200);
    return api()
      .post('/portal/login')
      .set({ cookie: String(form.headers['set-cookie']).split(';')[0], 'x-forwarded-for': CLIENT_IP })
      .type('form')
      .send({ _csrf: csrfOf(form.text), email, password });
  };
  const newServiceAccount = async () =>
    (
      await api()
        .post('/v1/service-accounts')
        .set(bearer())
        .send({ name: 'ci', scopes: ['apps:read'] })
        .expect(201)
    ).body.id as string;
  const newApp = async () => (await api().post('/v1/apps').set(bearer()).send({ name: 'audited' }).expect(201)).body.appId as string;
  const newEndpoint = async () =>
    (
      await api()
        .post('/v1/webhook-endpoints')
        .set(bearer())
        .send({ url: 'http://127.0.0.1:9/hook', events: ['user.created'] })
        .expect(201)
    ).body.id as string;
  const newDomain = async () => {
    const appId = await newApp();
    const hostname = `www.${randomBytes(4).toString('hex')}.example`;
    return (await api().post(`/v1/apps/${appId}/domains`).set(bearer()).send({ hostname }).expect(201)).body as {
      id: string;
      verification: { name: string; value: string };
    };
  };

  /** A published app with two production deployments, and the variants of a 60/40 split test between them. */
  const splitReady = async () => {
    const appId = await newApp();
    const deploy = async () => (await api().post('/v1/apps/deploy').set(bearer()).send({ appId, env: 'production' }).expect(200)).body.deploymentId as string;
    const [a, b] = [await deploy(), await deploy()];
    await api().post(`/v1/apps/${appId}/publish`).set(bearer()).send({ deploymentId: a }).expect(200);
    return {
      appId,
      variants: [
        { deploymentId: a, weight: 60 },
        { deploymentId: b, weight: 40 },
      ],
    };
  };
  type SplitReady = Awaited<ReturnType<typeof splitReady>>;
  /** The entry's target: the app, the test and its variants. */
  const splitTarget = (ready: SplitReady, splitId: string) =>
    `${ready.appId}/${splitId}/${ready.variants.map((v) => `${v.deploymentId}=${v.weight}`).join(',')}`;

  /** Each action: what it needs first (not audited here), then the request that does it, answering the entry's target id. */
  const CASES: Record<
    Exclude<AuditAction, `mfa.${string}` | `sso.${string}`>,
    { prepare?: () => Promise<unknown>; act: (prepared: never) => Promise<string> }
  > = {
    'sign_in.succeeded': { act: async () => ((await signIn(PORTAL_PASSWORD)).status === 303 ? ownerId() : 'failed') },
    'sign_in.failed': { act: async () => ((await signIn('wrong password!')).status === 401 ? ownerId() : 'failed') },
    'sign_in.locked': {
      prepare: async () => {
        await app.query(`DELETE FROM portal_sign_in_attempts`);
        for (let i = 0; i < 4; i++) await signIn('wrong password!');
      },
      act: async () => {
        const status = (await signIn('wrong password!')).status;
        await app.query(`DELETE FROM portal_sign_in_attempts`);
        return status === 429 ? ownerId() : 'failed';
      },
    },
    'sign_in.unlocked': {
      // The link an unlock e-mail carries (this server has no SMTP_URL: made the way the e-mail's task makes it).
      prepare: async () => new URL((await app.server.app.get(UnlockLinks).linkFor(email))!.link).pathname,
      act: async (path: string) => {
        const page = await api().get(path).set('x-forwarded-for', CLIENT_IP).expect(200);
        await api()
          .post(path)
          .set({ cookie: String(page.headers['set-cookie']).split(';')[0], 'x-forwarded-for': CLIENT_IP })
          .type('form')
          .send({ _csrf: csrfOf(page.text) })
          .expect(303);
        return ownerId();
      },
    },
    'member.invited': {
      act: async () =>
        (
          await api()
            .post('/v1/members/invitations')
            .set(bearer())
            .send({ email: unique('inv'), role: 'viewer' })
            .expect(201)
        ).body.id,
    },
    'member.invitation_revoked': {
      prepare: async () =>
        (
          await api()
            .post('/v1/members/invitations')
            .set(bearer())
            .send({ email: unique('revoked'), role: 'viewer' })
            .expect(201)
        ).body.id,
      act: async (id: string) => {
        await api().delete(`/v1/members/invitations/${id}`).set(bearer()).expect(204);
        return id;
      },
    },
    'member.joined': {
      prepare: async () => {
        const address = unique('join');
        const res = await api().post('/v1/members/invitations').set(bearer()).send({ email: address, role: 'viewer' }).expect(201);
        return { address, token: new URL(res.body.invitationUrl).pathname.split('/').pop()! };
      },
      act: async (p: { address: string; token: string }) => (await app.server.app.get(MembersService).join(p.token, p.address, CLIENT_IP)).id,
    },
    'member.role_changed': {
      prepare: () => addMember(app, owner.apiKey, unique('role'), 'viewer'),
      act: async (m: { memberId: string }) => (await api().patch(`/v1/members/${m.memberId}`).set(bearer()).send({ role: 'developer' }).expect(200)).body.id,
    },
    'member.removed': {
      prepare: async () => {
        const address = unique('gone');
        const res = await api().post('/v1/members/invitations').set(bearer()).send({ email: address, role: 'viewer' }).expect(201);
        return app.server.app.get(MembersService).join(new URL(res.body.invitationUrl).pathname.split('/').pop()!, address, null);
      },
      act: async (m: { id: string }) => {
        await api().delete(`/v1/members/${m.id}`).set(bearer()).expect(204);
        return m.id;
      },
    },
    'api_key.created': { act: async () => (await api().post('/v1/api-keys').set(bearer()).send({ name: 'audited' }).expect(201)).body.id },
    'api_key.revoked': {
      prepare: async () => (await api().post('/v1/api-keys').set(bearer()).send({ name: 'to revoke' }).expect(201)).body.id,
      act: async (id: string) => {
        await api().delete(`/v1/api-keys/${id}`).set(bearer()).expect(204);
        return id;
      },
    },
    'api_key.updated': {
      prepare: async () => (await api().post('/v1/api-keys').set(bearer()).send({ name: 'to budget' }).expect(201)).body.id,
      act: async (id: string) => (await api().patch(`/v1/api-keys/${id}`).set(bearer()).send({ aiTokensPerDay: 1000 }).expect(200)).body.id,
    },
    'service_account.created': { act: () => newServiceAccount() },
    'service_account.updated': {
      prepare: () => newServiceAccount(),
      act: async (id: string) => (await api().patch(`/v1/service-accounts/${id}`).set(bearer()).send({ aiTokensPerMonth: 5000 }).expect(200)).body.id,
    },
    'service_account.revoked': {
      prepare: () => newServiceAccount(),
      act: async (id: string) => {
        await api().delete(`/v1/service-accounts/${id}`).set(bearer()).expect(204);
        return id;
      },
    },
    'webhook_endpoint.created': { act: () => newEndpoint() },
    'webhook_endpoint.updated': {
      prepare: () => newEndpoint(),
      act: async (id: string) => (await api().patch(`/v1/webhook-endpoints/${id}`).set(bearer()).send({ description: 'changed' }).expect(200)).body.id,
    },
    'webhook_endpoint.deleted': {
      prepare: () => newEndpoint(),
      act: async (id: string) => {
        await api().delete(`/v1/webhook-endpoints/${id}`).set(bearer()).expect(204);
        return id;
      },
    },
    'webhook_endpoint.secret_rotated': {
      prepare: () => newEndpoint(),
      act: async (id: string) => {
        await api().post(`/v1/webhook-endpoints/${id}/rotate-secret`).set(bearer()).expect(200);
        return id;
      },
    },
    'plan.changed': {
      act: async () => {
        const plan = (await api().get('/v1/billing').set(bearer()).expect(200)).body.plan.id === 'free' ? 'pro' : 'free';
        await api()
          .put(`/v1/admin/accounts/${owner.accountId}/plan`)
          .set({ authorization: `Bearer ${ADMIN_TOKEN}` })
          .send({ plan })
          .expect(200);
        return owner.accountId;
      },
    },
    'app.deleted': {
      prepare: () => newApp(),
      act: async (appId: string) => {
        await api().delete(`/v1/apps/${appId}`).set(bearer()).expect(204);
        return appId;
      },
    },
    'domain.added': {
      prepare: () => newApp(),
      act: async (appId: string) =>
        (
          await api()
            .post(`/v1/apps/${appId}/domains`)
            .set(bearer())
            .send({ hostname: `www.${randomBytes(4).toString('hex')}.example` })
            .expect(201)
        ).body.id,
    },
    'domain.verified': {
      prepare: async () => {
        const domain = await newDomain();
        dns.set(domain.verification.name, { txt: [domain.verification.value] });
        return domain.id;
      },
      act: async (id: string) => {
        expect((await api().post(`/v1/domains/${id}/verify`).set(bearer()).expect(200)).body.status).toBe('verified');
        return id;
      },
    },
    'domain.lapsed': {
      // A verified domain whose TXT record has been gone for the grace period, checked again on demand.
      prepare: async () => {
        const domain = await newDomain();
        dns.set(domain.verification.name, { txt: [domain.verification.value] });
        await api().post(`/v1/domains/${domain.id}/verify`).set(bearer()).expect(200);
        dns.set(domain.verification.name, undefined);
        await app.query(`UPDATE domains SET proof_missing_since = now() - interval '73 hours' WHERE id = $1`, [domain.id]);
        return domain.id;
      },
      act: async (id: string) => {
        expect((await api().post(`/v1/domains/${id}/verify`).set(bearer()).expect(200)).body.status).toBe('lapsed');
        return id;
      },
    },
    'domain.deleted': {
      prepare: async () => (await newDomain()).id,
      act: async (id: string) => {
        await api().delete(`/v1/domains/${id}`).set(bearer()).expect(204);
        return id;
      },
    },
    'users.exported': {
      prepare: () => newApp(),
      act: async (appId: string) => {
        await api().get(`/portal/users.csv?appId=${appId}`).set({ cookie: owner.cookie, 'x-forwarded-for': CLIENT_IP }).expect(200);
        return appId;
      },
    },
    'user.erased': {
      prepare: async () => {
        const appId = await newApp();
        return (
          await api()
            .post('/v1/users')
            .set(bearer())
            .send({ appId, email: unique('user') })
            .expect(201)
        ).body.id;
      },
      act: async (id: string) => {
        await api().delete(`/v1/users/${id}`).set(bearer()).expect(204);
        return id;
      },
    },
    'split.started': {
      prepare: splitReady,
      act: async (ready: SplitReady) => {
        const started = await api().put(`/v1/apps/${ready.appId}/split`).set(bearer()).send({ variants: ready.variants }).expect(200);
        return splitTarget(ready, started.body.id);
      },
    },
    'split.ended': {
      prepare: async () => {
        const ready = await splitReady();
        const started = await api().put(`/v1/apps/${ready.appId}/split`).set(bearer()).send({ variants: ready.variants }).expect(200);
        return { ...ready, splitId: started.body.id as string };
      },
      // Ended by publishing the winner: audited as whoever published.
      act: async (ready: SplitReady & { splitId: string }) => {
        await api().post(`/v1/apps/${ready.appId}/publish`).set(bearer()).send({ deploymentId: ready.variants[1].deploymentId }).expect(200);
        return splitTarget(ready, ready.splitId);
      },
    },
    'env_var.set': {
      prepare: newApp,
      act: async (appId: string) => {
        await api().put(`/v1/apps/${appId}/environments/production/vars/STRIPE_KEY`).set(bearer()).send({ value: 'sk_test_audited', secret: true }).expect(200);
        return `${appId}/production/STRIPE_KEY`;
      },
    },
    'env_var.deleted': {
      prepare: async () => {
        const appId = await newApp();
        await api().put(`/v1/apps/${appId}/environments/production/vars/API_BASE`).set(bearer()).send({ value: 'https://api.example.com' }).expect(200);
        return appId;
      },
      act: async (appId: string) => {
        await api().delete(`/v1/apps/${appId}/environments/production/vars/API_BASE`).set(bearer()).expect(204);
        return `${appId}/production/API_BASE`;
      },
    },
    'analytics_share.created': {
      prepare: () => newApp(),
      act: async (appId: string) =>
        (await api().post(`/v1/apps/${appId}/analytics/shares`).set(bearer()).send({ name: 'Board' }).expect(201)).body.id as string,
    },
    'analytics_share.deleted': {
      prepare: async () => {
        const appId = await newApp();
        const { id } = (await api().post(`/v1/apps/${appId}/analytics/shares`).set(bearer()).send({ name: 'Board' }).expect(201)).body;
        return `${appId}/${id}`;
      },
      act: async (ids: string) => {
        const [appId, id] = ids.split('/');
        await api().delete(`/v1/apps/${appId}/analytics/shares/${id}`).set(bearer()).expect(204);
        return id;
      },
    },
  };
  const ownerId = async () =>
    (await api().get('/v1/members').set(bearer()).expect(200)).body.data.find((m: { email: string }) => m.email === email).id as string;

  it('has a case for every action but MFA and SSO (see the MFA and SSO tests)', () => {
    expect(Object.keys(CASES).sort()).toEqual(AUDIT_ACTION_NAMES.filter((a) => !a.startsWith('mfa.') && !a.startsWith('sso.')).sort());
  });

  it.each(Object.keys(CASES))('%s writes exactly one entry, with its actor, target and truncated IP', async (action) => {
    const { prepare, act } = CASES[action as keyof typeof CASES];
    const prepared = prepare ? await prepare() : undefined;
    const before = new Set((await entries()).map((e) => e.id));
    const targetId = await act(prepared as never);
    const written = (await entries()).filter((e) => !before.has(e.id));
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ action, target: { id: targetId } });
    expect(written[0].id).toMatch(/^aud_/);
    if (written[0].actor.type === 'credential') expect(written[0].actor).toMatchObject({ label: 'default' });
    if (action === 'plan.changed') expect(written[0].actor).toEqual({ type: 'operator', id: 'operator', label: 'admin token' });
    if (action.startsWith('sign_in.') || action === 'users.exported') expect(written[0].actor).toMatchObject({ type: 'member', label: email });
    if (action !== 'plan.changed') expect(written[0].ip).toBe('203.0.113.0/24');
  });

  it('filters by action, actor and time, in the list shape', async () => {
    const all = await entries();
    const keys = (await app.http().get('/v1/audit-log?action=api_key.created').set(bearer()).expect(200)).body;
    expect(keys.nextCursor).toBeNull();
    expect(keys.data.length).toBeGreaterThan(0);
    expect(keys.data.every((e: Entry) => e.action === 'api_key.created')).toBe(true);
    const operator = (await app.http().get('/v1/audit-log?actor=operator').set(bearer()).expect(200)).body.data;
    expect(operator.map((e: Entry) => e.action).sort()).toEqual(['api_key.created', 'plan.changed']);
    const newest = all[0];
    const window = await app
      .http()
      .get('/v1/audit-log')
      .query({ from: newest.at, to: new Date(Date.parse(newest.at) + 1).toISOString() })
      .set(bearer())
      .expect(200);
    expect(window.body.data.map((e: Entry) => e.id)).toContain(newest.id);
    const later = await app
      .http()
      .get('/v1/audit-log')
      .query({ from: new Date(Date.now() + 60_000).toISOString() })
      .set(bearer())
      .expect(200);
    expect(later.body.data).toEqual([]);
    const page = await app.http().get('/v1/audit-log?limit=2').set(bearer()).expect(200);
    expect(page.body.data).toHaveLength(2);
    const next = await app.http().get(`/v1/audit-log?limit=2&cursor=${page.body.nextCursor}`).set(bearer()).expect(200);
    expect(next.body.data[0].id).toBe(all[2].id);
    const bad = await app.http().get('/v1/audit-log?action=nope&from=yesterday').set(bearer()).expect(400);
    expect(bad.body.message).toMatch(/action must be one of/);
    expect(bad.body.message).toMatch(/from must be an ISO 8601 date-time/);
  });

  it("needs audit:read, and never shows another account's entries", async () => {
    const key = (
      await app
        .http()
        .post('/v1/api-keys')
        .set(bearer())
        .send({ name: 'apps only', scopes: ['apps:read'] })
        .expect(201)
    ).body.key;
    const res = await app
      .http()
      .get('/v1/audit-log')
      .set({ authorization: `Bearer ${key}` })
      .expect(403);
    expect(res.body.message).toBe('This credential lacks the scope audit:read');
    const other = (
      await app
        .http()
        .post('/v1/admin/accounts')
        .set({ authorization: `Bearer ${ADMIN_TOKEN}` })
        .send({ email: unique('other') })
        .expect(201)
    ).body;
    const theirs = (
      await app
        .http()
        .get('/v1/audit-log')
        .set({ authorization: `Bearer ${other.apiKey}` })
        .expect(200)
    ).body.data as Entry[];
    expect(theirs.map((e) => e.action)).toEqual(['api_key.created']);
  });

  it('is append-only: no route edits or deletes an entry, and the database refuses it', async () => {
    const [entry] = await entries();
    await app.http().delete(`/v1/audit-log/${entry.id}`).set(bearer()).expect(404);
    await app.http().patch(`/v1/audit-log/${entry.id}`).set(bearer()).send({}).expect(404);
    await expect(app.query(`UPDATE audit_log SET action = 'x' WHERE id = $1`, [entry.id])).rejects.toThrow(/append-only/);
    await expect(app.query(`DELETE FROM audit_log WHERE id = $1`, [entry.id])).rejects.toThrow(/append-only/);
    await expect(app.query(`TRUNCATE audit_log`)).rejects.toThrow(/append-only/);
    expect((await entries())[0]).toEqual(entry);
  });

  it('keeps entries 400 days: the retention job deletes older ones only', async () => {
    const at = (days: number) => new Date(Date.now() - days * 86_400_000);
    for (const [id, days] of [
      ['aud_old', 401],
      ['aud_kept', 399],
    ] as const) {
      await app.query(
        `INSERT INTO audit_log (id, account_id, created_at, actor_type, actor_id, actor_label, action, target_type, target_id) VALUES ($1, $2, $3, 'operator', 'operator', 'admin token', 'plan.changed', 'account', $2)`,
        [id, owner.accountId, at(days)],
      );
    }
    expect(await app.server.app.get(AuditLog).purgeExpired()).toBe(1);
    const left = await app.query<{ id: string }>(`SELECT id FROM audit_log WHERE id IN ('aud_old', 'aud_kept')`);
    expect(left).toEqual([{ id: 'aud_kept' }]);
  });
});
