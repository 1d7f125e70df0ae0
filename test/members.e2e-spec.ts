import { randomBytes } from 'node:crypto';
import { MembersService } from '../src/members/members.service.js';
import { addMember, memberSession, postPortalForm } from './support/members.js';
import { portalSession } from './support/portal-session.js';
import { createAccount, startTestApp, target, TestApp } from './support/test-app.js';

const unique = (name: string) => `${name}-${randomBytes(4).toString('hex')}@example.com`;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe(`members and roles (${target})`, () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it("an account's login is its owner; GET /v1/members lists members in the list shape", async () => {
    const account = await createAccount(app);
    const res = await app.http().get('/v1/members').set(bearer(account.apiKey)).expect(200);
    expect(res.body).toEqual({
      data: [{ id: expect.stringMatching(/^mem_/), email: account.email, role: 'owner', createdAt: expect.any(String) }],
      nextCursor: null,
    });
  });

  it('invites: the link is answered once (no SMTP), single use, for its e-mail only; a member twice is refused', async () => {
    const account = await createAccount(app);
    const email = unique('grace');
    const res = await app
      .http()
      .post('/v1/members/invitations')
      .set(bearer(account.apiKey))
      .send({ email: email.toUpperCase(), role: 'developer' })
      .expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^inv_/),
      email,
      role: 'developer',
      expiresAt: expect.any(String),
      emailed: false,
      invitationUrl: expect.stringMatching(/\/portal\/join\/[A-Za-z0-9_-]{32}$/),
    });
    expect(new Date(res.body.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const token = new URL(res.body.invitationUrl).pathname.split('/').pop()!;
    const [row] = await app.query<{ token_hash: string }>('SELECT token_hash FROM member_invitations WHERE id = $1', [res.body.id]);
    expect(row.token_hash).not.toContain(token);

    const members = app.server.app.get(MembersService);
    await expect(members.join(token, unique('mallory'), null)).rejects.toMatchObject({ reason: 'invitation_email_mismatch', status: 403 });
    const joined = await members.join(token, email, null);
    expect(joined).toMatchObject({ accountId: account.accountId, email, role: 'developer' });
    await expect(members.join(token, email, null)).rejects.toMatchObject({ reason: 'invitation_not_open', status: 404 });

    const again = await app.http().post('/v1/members/invitations').set(bearer(account.apiKey)).send({ email, role: 'viewer' }).expect(409);
    expect(again.body).toMatchObject({ error: true, code: 409, reason: 'already_member' });
    expect(JSON.stringify(again.body)).not.toContain(email);
  });

  it('refuses bad bodies with 400 naming the fields', async () => {
    const account = await createAccount(app);
    const res = await app.http().post('/v1/members/invitations').set(bearer(account.apiKey)).send({ email: 'nope', role: 'boss', extra: 1 }).expect(400);
    expect(res.body.message).toMatch(/email must be an e-mail address/);
    expect(res.body.message).toMatch(/role must be one of: owner, admin, developer, viewer/);
    expect(res.body.message).toMatch(/extra/);
    await app.http().patch('/v1/members/mem_nope').set(bearer(account.apiKey)).send({ role: 'admin' }).expect(404);
  });

  it('each role can do what the permission table allows, and its keys no more (403 naming the role)', async () => {
    const account = await createAccount(app);
    const viewer = await addMember(app, account.apiKey, unique('viewer'), 'viewer');
    const developer = await addMember(app, account.apiKey, unique('dev'), 'developer');
    const admin = await addMember(app, account.apiKey, unique('admin'), 'admin');

    // A viewer reads, and writes nothing.
    await app.http().get('/v1/apps').set(bearer(viewer.apiKey)).expect(200);
    await app.http().get('/v1/members').set(bearer(viewer.apiKey)).expect(200);
    await app.http().get('/v1/audit-log').set(bearer(viewer.apiKey)).expect(200);
    const refused = await app.http().post('/v1/apps').set(bearer(viewer.apiKey)).send({ name: 'nope' }).expect(403);
    expect(refused.body).toMatchObject({ error: true, code: 403, reason: 'missing_scope' });
    await app.http().get('/v1/api-keys').set(bearer(viewer.apiKey)).expect(403);

    // A developer builds apps, but manages neither keys nor members.
    const made = await app.http().post('/v1/apps').set(bearer(developer.apiKey)).send({ name: 'dev app' }).expect(201);
    await app.http().delete(`/v1/apps/${made.body.appId}`).set(bearer(developer.apiKey)).expect(204);
    await app.http().get('/v1/api-keys').set(bearer(developer.apiKey)).expect(403);
    await app
      .http()
      .post('/v1/members/invitations')
      .set(bearer(developer.apiKey))
      .send({ email: unique('x'), role: 'viewer' })
      .expect(403);

    // An admin manages keys and members, but not owners (and no key does: owners act in the portal).
    await app.http().get('/v1/api-keys').set(bearer(admin.apiKey)).expect(200);
    const owners = await app
      .http()
      .post('/v1/members/invitations')
      .set(bearer(admin.apiKey))
      .send({ email: unique('o'), role: 'owner' })
      .expect(403);
    expect(owners.body).toMatchObject({ code: 403, reason: 'owner_member_required', credential: 'api_key' });
    // An admin's key mints keys within the admin role; a developer's role bounds what it can be given.
    const minted = await app
      .http()
      .post('/v1/api-keys')
      .set(bearer(admin.apiKey))
      .send({ name: 'ci', scopes: ['apps:read'] })
      .expect(201);
    const [row] = await app.query<{ created_by: string }>('SELECT created_by FROM api_keys WHERE id = $1', [minted.body.id]);
    expect(row.created_by).toBe(admin.memberId);

    const apiKeys = await import('../src/auth/api-keys.service.js');
    const service = app.server.app.get(apiKeys.ApiKeysService);
    const asDeveloper = {
      accountId: account.accountId,
      credentialId: 'portal',
      kind: 'portal_session' as const,
      scopes: ['*'],
      member: { id: developer.memberId, role: 'developer' as const },
    };
    expect(() => service.grantable(['keys:write'], asDeveloper)).toThrow('The role developer does not allow keys:write');
    expect(() => service.grantable(['*'], asDeveloper)).toThrow('The role developer does not allow *');
    expect(service.grantable(undefined, asDeveloper)).not.toContain('keys:write');
  });

  it("a demoted member's keys lose at once what the new role lacks; a removed member's keys and sessions end", async () => {
    const account = await createAccount(app);
    const dev = await addMember(app, account.apiKey, unique('dev'), 'developer');
    await app.http().post('/v1/apps').set(bearer(dev.apiKey)).send({ name: 'before' }).expect(201);
    const changed = await app.http().patch(`/v1/members/${dev.memberId}`).set(bearer(account.apiKey)).send({ role: 'viewer' }).expect(200);
    expect(changed.body).toMatchObject({ id: dev.memberId, role: 'viewer' });
    const refused = await app.http().post('/v1/apps').set(bearer(dev.apiKey)).send({ name: 'after' }).expect(403);
    expect(refused.body).toMatchObject({ code: 403, reason: 'role_forbids', role: 'viewer', message: 'The role viewer does not allow apps:write' });
    await app.http().get('/v1/apps').set(bearer(dev.apiKey)).expect(200);

    await app.http().delete(`/v1/members/${dev.memberId}`).set(bearer(account.apiKey)).expect(204);
    await app.http().get('/v1/apps').set(bearer(dev.apiKey)).expect(401);
    const keys = await app.query<{ revoked_at: Date | null }>('SELECT revoked_at FROM api_keys WHERE created_by = $1', [dev.memberId]);
    expect(keys).toHaveLength(1);
    expect(keys[0].revoked_at).not.toBeNull();
    await app.http().delete(`/v1/members/${dev.memberId}`).set(bearer(account.apiKey)).expect(404);
  });

  it('keeps an owner: the last one can be neither demoted nor removed; only an owner, in the portal, makes or demotes owners', async () => {
    const account = await portalSession(app, unique('owner'));
    const [owner] = (await app.http().get('/v1/members').set(bearer(account.apiKey)).expect(200)).body.data;
    const demote = await postPortalForm(app, account.cookie, `/portal/members/${owner.id}/role`, { role: 'admin' });
    expect(demote.status).toBe(409);
    expect(demote.text).toContain('An account keeps at least one owner');
    expect((await postPortalForm(app, account.cookie, `/portal/members/${owner.id}/remove`, {})).status).toBe(409);

    const admin = await addMember(app, account.apiKey, unique('admin'), 'admin');
    const byAdmin = await app.http().patch(`/v1/members/${owner.id}`).set(bearer(admin.apiKey)).send({ role: 'viewer' }).expect(403);
    expect(byAdmin.body).toMatchObject({ reason: 'owner_member_required' });
    const adminSession = await memberSession(app, account.accountId, admin.memberId);
    const inPortal = await postPortalForm(app, adminSession, `/portal/members/${admin.memberId}/role`, { role: 'owner' });
    expect(inPortal.status).toBe(403);
    expect(inPortal.text).toContain('The role admin does not allow making, demoting or removing an owner');

    // The owner makes the admin an owner; then the first owner can step down.
    expect((await postPortalForm(app, account.cookie, `/portal/members/${admin.memberId}/role`, { role: 'owner' })).status).toBe(303);
    expect((await postPortalForm(app, adminSession, `/portal/members/${owner.id}/role`, { role: 'developer' })).status).toBe(303);
    const roles = (await app.http().get('/v1/members').set(bearer(admin.apiKey)).expect(200)).body.data.map((m: { role: string }) => m.role).sort();
    expect(roles).toEqual(['developer', 'owner']);
  });

  it("never shows another account's members (404)", async () => {
    const alice = await createAccount(app);
    const bob = await createAccount(app);
    const [bobOwner] = (await app.http().get('/v1/members').set(bearer(bob.apiKey)).expect(200)).body.data;
    await app.http().patch(`/v1/members/${bobOwner.id}`).set(bearer(alice.apiKey)).send({ role: 'viewer' }).expect(404);
    await app.http().delete(`/v1/members/${bobOwner.id}`).set(bearer(alice.apiKey)).expect(404);
  });
});
