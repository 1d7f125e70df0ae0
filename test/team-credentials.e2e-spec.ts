import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '../src/auth/api-keys.service.js';
import type { Role } from '../src/common/request-context/roles.js';
import { TeamCredentials1764300000000 } from '../src/database/migrations/1764300000000-team-credentials.js';
import { errorEnvelope, NO_RATE_LIMIT } from './support/api-client.js';
import { addMember, memberSession, postPortalForm } from './support/members.js';
import { portalSession } from './support/portal-session.js';
import { itUnless, UNLESS_REDIS } from './support/skips.js';
import { startTestApp, target, TestApp } from './support/test-app.js';
import { until } from './support/webhook-receiver.js';

const unique = (name: string) => `${name}-${randomBytes(4).toString('hex')}@team-credentials.test`;
const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });

/**
 * Issue 45, T1 and T2: every credential acts with its creator's current role — service accounts and
 * their tokens as API keys — and no credential performs an owner-only act; removing a member ends
 * what they created.
 */
describe(`team credentials: creators bound them, owners act in person (${target})`, () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ env: NO_RATE_LIMIT });
  });
  afterAll(() => app?.close());

  /** A new account signed in to the portal as its owner, with the owner's member id and a key the owner made for themselves. */
  const account = async () => {
    const session = await portalSession(app, unique('owner'));
    const [owner] = await app.query<{ id: string; email: string }>(`SELECT id, email FROM members WHERE account_id = $1`, [session.accountId]);
    return { ...session, ownerId: owner.id, ownerKey: await ownKey(session.accountId, owner.id, owner.email, 'owner') };
  };
  const ownKey = async (accountId: string, memberId: string, email: string, role: Role) =>
    (
      await app.server.app
        .get(ApiKeysService)
        .createFor(
          { accountId, credentialId: 'portal', kind: 'portal_session', scopes: ['*'], member: { id: memberId, role }, label: email },
          { type: 'member', id: memberId, label: email, ip: null },
          `${role}'s own key`,
          undefined,
        )
    ).key;
  const serviceAccount = async (key: string, scopes: string[]) =>
    (await app.http().post('/v1/service-accounts').set(bearer(key)).send({ name: 'robot', scopes }).expect(201)).body as {
      id: string;
      clientId: string;
      clientSecret: string;
    };
  const tokenFor = (sa: { clientId: string; clientSecret: string }) =>
    app.http().post('/v1/oauth/token').send({ grant_type: 'client_credentials', client_id: sa.clientId, client_secret: sa.clientSecret });
  const roleOf = async (memberId: string) => (await app.query<{ role: string }>(`SELECT role FROM members WHERE id = $1`, [memberId]))[0]?.role;

  it("T1: an admin's service account cannot make the admin an owner, remove the owner or invite an owner (403 owner_member_required)", async () => {
    const a = await account();
    const admin = await addMember(app, a.ownerKey, unique('admin'), 'admin');
    const sa = await serviceAccount(admin.apiKey, ['members:read', 'members:write']);
    await expect(app.query(`SELECT created_by FROM service_accounts WHERE id = $1`, [sa.id])).resolves.toEqual([{ created_by: admin.memberId }]);
    const token = (await tokenFor(sa).expect(200)).body.access_token as string;

    const promote = await app.http().patch(`/v1/members/${admin.memberId}`).set(bearer(token)).send({ role: 'owner' }).expect(403);
    expect(promote.body).toEqual({
      ...errorEnvelope(
        promote,
        403,
        'owner_member_required',
        "Only an owner signed in to the portal may make, demote or remove an owner, or change the account's single sign-on: no API key or access token may, whoever created it",
      ),
      credential: 'access_token',
    });
    const removeOwner = await app.http().delete(`/v1/members/${a.ownerId}`).set(bearer(token)).expect(403);
    expect(removeOwner.body.reason).toBe('owner_member_required');
    const inviteOwner = await app
      .http()
      .post('/v1/members/invitations')
      .set(bearer(token))
      .send({ email: unique('new-owner'), role: 'owner' })
      .expect(403);
    expect(inviteOwner.body.reason).toBe('owner_member_required');
    const sso = await app.http().delete('/v1/sso').set(bearer(token)).expect(403);
    expect(sso.body.reason).toBe('owner_member_required');

    expect(await roleOf(admin.memberId)).toBe('admin');
    expect(await roleOf(a.ownerId)).toBe('owner');
    await expect(app.query(`SELECT 1 FROM member_invitations WHERE account_id = $1 AND role = 'owner'`, [a.accountId])).resolves.toEqual([]);
    // Within the admin's role it works as before.
    await app.http().get('/v1/members').set(bearer(token)).expect(200);
  });

  it("T1: no credential performs an owner-only act, not even the owner's own key or the operator's first key; the owner in the portal does", async () => {
    const a = await account();
    const dev = await addMember(app, a.ownerKey, unique('dev'), 'developer');
    for (const [key, credential] of [
      [a.ownerKey, 'api_key'],
      [a.apiKey, 'api_key'],
    ]) {
      const promote = await app.http().patch(`/v1/members/${dev.memberId}`).set(bearer(key)).send({ role: 'owner' }).expect(403);
      expect(promote.body).toMatchObject({ reason: 'owner_member_required', credential });
      const inviteOwner = await app
        .http()
        .post('/v1/members/invitations')
        .set(bearer(key))
        .send({ email: unique('o'), role: 'owner' })
        .expect(403);
      expect(inviteOwner.body.reason).toBe('owner_member_required');
      const removeOwner = await app.http().delete(`/v1/members/${a.ownerId}`).set(bearer(key)).expect(403);
      expect(removeOwner.body.reason).toBe('owner_member_required');
      const sso = await app
        .http()
        .put('/v1/sso')
        .set(bearer(key))
        .send({ issuer: 'https://idp.example.com', clientId: 'c', clientSecret: 's', domains: ['example.com'], defaultRole: 'viewer' })
        .expect(403);
      expect(sso.body.reason).toBe('owner_member_required');
    }
    expect(await roleOf(dev.memberId)).toBe('developer');

    // What is not owner-only stays open to credentials: an admin's role change of a developer.
    await app.http().patch(`/v1/members/${dev.memberId}`).set(bearer(a.ownerKey)).send({ role: 'viewer' }).expect(200);

    // The owner, signed in to the portal, makes the member an owner.
    const made = await postPortalForm(app, a.cookie, `/portal/members/${dev.memberId}/role`, { role: 'owner' });
    expect(made.status).toBe(303);
    expect(await roleOf(dev.memberId)).toBe('owner');
    // An admin signed in to the portal may not (owners_only, the page says why).
    const admin = await addMember(app, a.ownerKey, unique('admin'), 'admin');
    const refused = await postPortalForm(app, await memberSession(app, a.accountId, admin.memberId), `/portal/members/${dev.memberId}/role`, {
      role: 'viewer',
    });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('The role admin does not allow making, demoting or removing an owner');
    expect(await roleOf(dev.memberId)).toBe('owner');
  });

  it("T1: a service account's token acts with its creator's current role: a demotion bounds an issued token at once", async () => {
    const a = await account();
    const admin = await addMember(app, a.ownerKey, unique('admin'), 'admin');
    const sa = await serviceAccount(admin.apiKey, ['*']);
    const token = (await tokenFor(sa).expect(200)).body.access_token as string;
    const other = (await tokenFor(sa).expect(200)).body.access_token as string;
    // Verified and cached before the demotion.
    await app.http().get('/v1/api-keys').set(bearer(token)).expect(200);
    await app.http().post('/v1/apps').set(bearer(token)).send({ name: 'before' }).expect(201);

    await app.http().patch(`/v1/members/${admin.memberId}`).set(bearer(a.ownerKey)).send({ role: 'developer' }).expect(200);
    const keys = await app.http().get('/v1/api-keys').set(bearer(token)).expect(403);
    expect(keys.body).toMatchObject({ reason: 'role_forbids', role: 'developer', message: 'The role developer does not allow keys:write' });
    // Its keys:write no longer reaches another token either (RFC 7009 revocation takes keys:write, within the role).
    const revoke = await app.http().post('/v1/oauth/revoke').set(bearer(token)).send({ token: other }).expect(403);
    expect(revoke.body).toMatchObject({ reason: 'role_forbids', role: 'developer' });
    await app.http().get('/v1/apps').set(bearer(other)).expect(200);
    // What a developer may, it still may.
    await app.http().post('/v1/apps').set(bearer(token)).send({ name: 'after' }).expect(201);

    // A viewer's: no writing at all.
    await app.http().patch(`/v1/members/${admin.memberId}`).set(bearer(a.ownerKey)).send({ role: 'viewer' }).expect(200);
    const write = await app.http().post('/v1/apps').set(bearer(token)).send({ name: 'viewer' }).expect(403);
    expect(write.body).toMatchObject({ reason: 'role_forbids', role: 'viewer' });
  });

  it('T2: removing a member revokes their service accounts and the tokens issued to them, at once; each audited', async () => {
    const a = await account();
    const admin = await addMember(app, a.ownerKey, unique('admin'), 'admin');
    const sa = await serviceAccount(admin.apiKey, ['members:write', 'members:read', 'apps:read']);
    const token = (await tokenFor(sa).expect(200)).body.access_token as string;
    await app.http().get('/v1/members').set(bearer(token)).expect(200);
    // Another member's service account stays.
    const kept = await serviceAccount(a.ownerKey, ['apps:read']);
    const keptToken = (await tokenFor(kept).expect(200)).body.access_token as string;

    await app.http().delete(`/v1/members/${admin.memberId}`).set(bearer(a.ownerKey)).expect(204);

    // The sequel: after the removal the token invited an owner and replaced the SSO settings. Now: 401.
    const invite = await app
      .http()
      .post('/v1/members/invitations')
      .set(bearer(token))
      .send({ email: unique('x'), role: 'admin' })
      .expect(401);
    expect(invite.body.reason).toBe('invalid_credential');
    await app.http().get('/v1/members').set(bearer(token)).expect(401);
    const again = await tokenFor(sa).expect(401);
    expect(again.body).toMatchObject({ error: 'invalid_client' });
    await expect(app.query(`SELECT revoked_at IS NOT NULL AS revoked FROM service_accounts WHERE id = $1`, [sa.id])).resolves.toEqual([{ revoked: true }]);
    await expect(app.query(`SELECT revoked_at IS NOT NULL AS revoked FROM access_tokens WHERE service_account_id = $1`, [sa.id])).resolves.toEqual([
      { revoked: true },
    ]);
    const audited = await app.query<{ action: string; actor_type: string }>(
      `SELECT action, actor_type FROM audit_log WHERE account_id = $1 AND target_id = $2 ORDER BY created_at`,
      [a.accountId, sa.id],
    );
    expect(audited).toEqual([
      { action: 'service_account.created', actor_type: 'credential' },
      { action: 'service_account.revoked', actor_type: 'credential' },
    ]);
    const listed = (await app.http().get('/v1/service-accounts').set(bearer(a.ownerKey)).expect(200)).body.data.map((s: { id: string }) => s.id);
    expect(listed).toEqual([kept.id]);
    await app.http().get('/v1/apps').set(bearer(keptToken)).expect(200);
  });

  it('T2: a member removed through the portal loses their portal-made service account too', async () => {
    const a = await account();
    const admin = await addMember(app, a.ownerKey, unique('admin'), 'admin');
    const adminSession = await memberSession(app, a.accountId, admin.memberId);
    const created = await postPortalForm(app, adminSession, '/portal/service-accounts', { name: 'portal robot', scopes: ['apps:read'] });
    expect(created.status).toBe(200);
    const clientSecret = /id="new-secret" readonly value="([^"]+)"/.exec(created.text)![1];
    const [row] = await app.query<{ id: string; client_id: string; created_by: string }>(
      `SELECT id, client_id, created_by FROM service_accounts WHERE account_id = $1 AND name = 'portal robot'`,
      [a.accountId],
    );
    expect(row.created_by).toBe(admin.memberId);
    const token = (await tokenFor({ clientId: row.client_id, clientSecret }).expect(200)).body.access_token as string;
    await app.http().get('/v1/apps').set(bearer(token)).expect(200);

    expect((await postPortalForm(app, a.cookie, `/portal/members/${admin.memberId}/remove`, {})).status).toBe(303);
    await app.http().get('/v1/apps').set(bearer(token)).expect(401);
    await tokenFor({ clientId: row.client_id, clientSecret }).expect(401);
  });

  itUnless(UNLESS_REDIS)(
    'T1, T2 on two instances: a demotion bounds, and a removal ends, a token the other instance has cached, at once (Redis pub/sub)',
    async () => {
      const second = await startTestApp({ reuse: { dataDir: app.dataDir, env: app.env }, keep: true });
      try {
        const a = await account();
        const admin = await addMember(app, a.ownerKey, unique('admin'), 'admin');
        const sa = await serviceAccount(admin.apiKey, ['*']);
        const token = (await tokenFor(sa).expect(200)).body.access_token as string;
        await second.http().get('/v1/api-keys').set(bearer(token)).expect(200);

        await app.http().patch(`/v1/members/${admin.memberId}`).set(bearer(a.ownerKey)).send({ role: 'developer' }).expect(200);
        await until(async () => (await second.http().get('/v1/api-keys').set(bearer(token))).status === 403, 5_000, 'the demotion seen by the other instance');
        await second.http().get('/v1/apps').set(bearer(token)).expect(200);

        await app.http().delete(`/v1/members/${admin.memberId}`).set(bearer(a.ownerKey)).expect(204);
        await until(async () => (await second.http().get('/v1/apps').set(bearer(token))).status === 401, 5_000, 'the removal seen by the other instance');
      } finally {
        await second.close();
      }
    },
  );

  it('migration 1764300000000 names the creator of older service accounts from the audit log, and revokes those of members removed already', async () => {
    const a = await account();
    const admin = await addMember(app, a.ownerKey, unique('admin'), 'admin');
    const gone = await addMember(app, a.ownerKey, unique('gone'), 'admin');
    const byAdminKey = await serviceAccount(admin.apiKey, ['apps:read']);
    const byOperatorKey = await serviceAccount(a.apiKey, ['apps:read']);
    const byGone = await serviceAccount(gone.apiKey, ['apps:read']);
    const goneToken = (await tokenFor(byGone).expect(200)).body.access_token as string;
    const adminSession = await memberSession(app, a.accountId, admin.memberId);
    expect((await postPortalForm(app, adminSession, '/portal/service-accounts', { name: 'in the portal', scopes: ['apps:read'] })).status).toBe(200);
    const [inPortal] = await app.query<{ id: string }>(`SELECT id FROM service_accounts WHERE account_id = $1 AND name = 'in the portal'`, [a.accountId]);

    const migration = new TeamCredentials1764300000000();
    const runner = app.server.app.get(DataSource).createQueryRunner();
    try {
      // Back to service accounts without creators; a member removed the old way (their service account left alive); then forward again.
      await migration.down(runner);
      await runner.query(`DELETE FROM members WHERE id = $1`, [gone.memberId]);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    const rows = await app.query<{ id: string; created_by: string | null; revoked: boolean }>(
      `SELECT id, created_by, revoked_at IS NOT NULL AS revoked FROM service_accounts WHERE account_id = $1`,
      [a.accountId],
    );
    const byId = Object.fromEntries(rows.map((r) => [r.id, { createdBy: r.created_by, revoked: r.revoked }]));
    expect(byId).toEqual({
      [byAdminKey.id]: { createdBy: admin.memberId, revoked: false },
      [inPortal.id]: { createdBy: admin.memberId, revoked: false },
      [byOperatorKey.id]: { createdBy: null, revoked: false },
      [byGone.id]: { createdBy: gone.memberId, revoked: true },
    });
    await expect(app.query(`SELECT revoked_at IS NOT NULL AS revoked FROM access_tokens WHERE service_account_id = $1`, [byGone.id])).resolves.toEqual([
      { revoked: true },
    ]);
    await expect(
      app.query(`SELECT actor_type, actor_id FROM audit_log WHERE target_id = $1 AND action = 'service_account.revoked'`, [byGone.id]),
    ).resolves.toEqual([{ actor_type: 'operator', actor_id: 'system' }]);
    await app.http().get('/v1/apps').set(bearer(goneToken)).expect(401);
    await tokenFor(byGone).expect(401);
  });
});
