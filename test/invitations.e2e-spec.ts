import { randomBytes } from 'node:crypto';
import { MembersService } from '../src/members/members.service.js';
import { errorEnvelope, NO_RATE_LIMIT } from './support/api-client.js';
import { addMember, memberSession, postPortalForm } from './support/members.js';
import { portalSession } from './support/portal-session.js';
import { SmtpTestServer } from './support/smtp-server.js';
import { createAccount, startTestApp, target, TestApp } from './support/test-app.js';

const unique = (name: string) => `${name}-${randomBytes(4).toString('hex')}@invitations.test`;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const tokenOf = (invitationUrl: string) => new URL(invitationUrl).pathname.split('/').pop()!;

/** Issue 45, T3: pending invitations are listed and revocable, end with their sender, and never grant more than the sender may now give. */
describe(`pending invitations (${target})`, () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ env: NO_RATE_LIMIT });
  });
  afterAll(() => app?.close());

  const invite = async (key: string, email: string, role: string) =>
    (await app.http().post('/v1/members/invitations').set(bearer(key)).send({ email, role }).expect(201)).body as { id: string; invitationUrl: string };
  const pending = async (key: string) => (await app.http().get('/v1/members/invitations').set(bearer(key)).expect(200)).body;
  const join = (invitationUrl: string, email: string) => app.server.app.get(MembersService).join(tokenOf(invitationUrl), email, null);
  const auditOf = (accountId: string, action: string) =>
    app.query<{ target_id: string; actor_id: string }>(`SELECT target_id, actor_id FROM audit_log WHERE account_id = $1 AND action = $2 ORDER BY created_at`, [
      accountId,
      action,
    ]);

  it('GET /v1/members/invitations lists the pending ones, newest first, never their link; DELETE revokes one: its link opens nothing', async () => {
    const account = await createAccount(app);
    const first = unique('first');
    const second = unique('second');
    const a = await invite(account.apiKey, first, 'developer');
    const b = await invite(account.apiKey, second, 'viewer');
    const used = unique('used');
    await join((await invite(account.apiKey, used, 'viewer')).invitationUrl, used);

    const listed = await pending(account.apiKey);
    expect(listed).toEqual({
      data: [
        { id: b.id, email: second, role: 'viewer', invitedBy: null, emailed: false, createdAt: expect.any(String), expiresAt: expect.any(String) },
        { id: a.id, email: first, role: 'developer', invitedBy: null, emailed: false, createdAt: expect.any(String), expiresAt: expect.any(String) },
      ],
      nextCursor: null,
    });
    expect(JSON.stringify(listed)).not.toContain(tokenOf(a.invitationUrl));
    const paged = (await app.http().get('/v1/members/invitations?limit=1').set(bearer(account.apiKey)).expect(200)).body;
    expect(paged.data.map((i: { id: string }) => i.id)).toEqual([b.id]);
    const next = (await app.http().get(`/v1/members/invitations?limit=1&cursor=${paged.nextCursor}`).set(bearer(account.apiKey)).expect(200)).body;
    expect(next.data.map((i: { id: string }) => i.id)).toEqual([a.id]);

    await app.http().delete(`/v1/members/invitations/${a.id}`).set(bearer(account.apiKey)).expect(204);
    expect((await pending(account.apiKey)).data.map((i: { id: string }) => i.id)).toEqual([b.id]);
    await expect(join(a.invitationUrl, first)).rejects.toMatchObject({ reason: 'invitation_not_open', status: 404 });
    const page = await app.http().get(new URL(a.invitationUrl).pathname).expect(404);
    expect(page.text).toContain('was revoked');
    await expect(app.query(`SELECT 1 FROM members WHERE email = $1`, [first])).resolves.toEqual([]);

    const again = await app.http().delete(`/v1/members/invitations/${a.id}`).set(bearer(account.apiKey)).expect(404);
    expect(again.body).toEqual(
      errorEnvelope(again, 404, 'invitation_not_found', `No pending invitation ${a.id}: it was used, has expired, was revoked, or does not exist`),
    );
    await expect(auditOf(account.accountId, 'member.invitation_revoked')).resolves.toEqual([{ target_id: a.id, actor_id: expect.stringMatching(/^key_/) }]);

    // Another account's invitation: not there (404), untouched.
    const other = await createAccount(app);
    await app.http().delete(`/v1/members/invitations/${b.id}`).set(bearer(other.apiKey)).expect(404);
    expect((await pending(other.apiKey)).data).toEqual([]);
    expect((await pending(account.apiKey)).data.map((i: { id: string }) => i.id)).toEqual([b.id]);
  });

  it('reading them takes members:read, revoking members:write', async () => {
    const account = await createAccount(app);
    const viewer = await addMember(app, account.apiKey, unique('viewer'), 'viewer');
    const invitation = await invite(account.apiKey, unique('x'), 'viewer');
    expect((await pending(viewer.apiKey)).data).toHaveLength(1);
    const refused = await app.http().delete(`/v1/members/invitations/${invitation.id}`).set(bearer(viewer.apiKey)).expect(403);
    expect(refused.body.reason).toBe('missing_scope');
    expect((await pending(account.apiKey)).data).toHaveLength(1);
  });

  it("removing a member revokes the invitations they sent (audited); another member's stay", async () => {
    const account = await createAccount(app);
    const admin = await addMember(app, account.apiKey, unique('admin'), 'admin');
    const invitee = unique('by-admin');
    const byAdmin = await invite(admin.apiKey, invitee, 'developer');
    const byAccount = await invite(account.apiKey, unique('by-account'), 'developer');
    expect((await pending(account.apiKey)).data.find((i: { id: string }) => i.id === byAdmin.id)).toMatchObject({ invitedBy: admin.memberId });

    await app.http().delete(`/v1/members/${admin.memberId}`).set(bearer(account.apiKey)).expect(204);
    expect((await pending(account.apiKey)).data.map((i: { id: string }) => i.id)).toEqual([byAccount.id]);
    await expect(join(byAdmin.invitationUrl, invitee)).rejects.toMatchObject({ reason: 'invitation_not_open' });
    await expect(app.query(`SELECT 1 FROM members WHERE email = $1`, [invitee])).resolves.toEqual([]);
    await expect(auditOf(account.accountId, 'member.invitation_revoked')).resolves.toEqual([{ target_id: byAdmin.id, actor_id: expect.any(String) }]);
  });

  it("an invitation never grants more than its sender's role when it is used: a demotion revokes those above it, and the check holds at acceptance", async () => {
    const owner = await portalSession(app, unique('owner'));
    const admin = await addMember(app, owner.apiKey, unique('admin'), 'admin');
    const asAdmin = unique('as-admin');
    const asDeveloper = unique('as-dev');
    const adminInvite = await invite(admin.apiKey, asAdmin, 'admin');
    const developerInvite = await invite(admin.apiKey, asDeveloper, 'developer');

    await app.http().patch(`/v1/members/${admin.memberId}`).set(bearer(owner.apiKey)).send({ role: 'developer' }).expect(200);
    expect((await pending(owner.apiKey)).data.map((i: { id: string }) => i.id)).toEqual([developerInvite.id]);
    await expect(join(adminInvite.invitationUrl, asAdmin)).rejects.toMatchObject({ reason: 'invitation_not_open' });
    await expect(join(developerInvite.invitationUrl, asDeveloper)).resolves.toMatchObject({ role: 'developer' });

    // Whatever the way a sender's role fell (here written straight to the table, nothing revoked), acceptance checks it.
    const promoted = unique('promoted');
    await app.http().patch(`/v1/members/${admin.memberId}`).set(bearer(owner.apiKey)).send({ role: 'admin' }).expect(200);
    const late = await invite(admin.apiKey, promoted, 'admin');
    await app.query(`UPDATE members SET role = 'viewer' WHERE id = $1`, [admin.memberId]);
    const page = await app.http().get(new URL(late.invitationUrl).pathname).expect(404);
    expect(page.text).toContain('may no longer give its role');
    await expect(join(late.invitationUrl, promoted)).rejects.toMatchObject({ reason: 'invitation_not_open' });
    await app.query(`UPDATE members SET role = 'admin' WHERE id = $1`, [admin.memberId]);
    await expect(join(late.invitationUrl, promoted)).resolves.toMatchObject({ role: 'admin' });

    // An owner's invitation, sent in the portal by an owner, ends when that owner is no longer one.
    const [ownerRow] = await app.query<{ id: string }>(`SELECT id FROM members WHERE account_id = $1 AND role = 'owner'`, [owner.accountId]);
    const second = await addMember(app, { cookie: owner.cookie }, unique('second-owner'), 'owner');
    const futureOwner = unique('future-owner');
    const sent = await postPortalForm(app, owner.cookie, '/portal/members/invitations', { email: futureOwner, role: 'owner' });
    const url = /id="invitation-url" readonly value="([^"]+)"/.exec(sent.text)![1];
    const secondSession = await memberSession(app, owner.accountId, second.memberId);
    expect((await postPortalForm(app, secondSession, `/portal/members/${ownerRow.id}/role`, { role: 'admin' })).status).toBe(303);
    await expect(join(url, futureOwner)).rejects.toMatchObject({ reason: 'invitation_not_open' });
  });

  it("a credential no member created (the operator's first key) sends an admin's invitations at most: an owner's made before is not honoured", async () => {
    const account = await createAccount(app);
    const admin = unique('admin');
    await expect(join((await invite(account.apiKey, admin, 'admin')).invitationUrl, admin)).resolves.toMatchObject({ role: 'admin' });
    // An owner's invitation of such a key, as one could be sent before: never an owner.
    const legacy = unique('legacy-owner');
    const made = await invite(account.apiKey, legacy, 'viewer');
    await app.query(`UPDATE member_invitations SET role = 'owner' WHERE id = $1`, [made.id]);
    await expect(join(made.invitationUrl, legacy)).rejects.toMatchObject({ reason: 'invitation_not_open' });
  });

  it('the members page lists pending invitations with a revoke button for members:write; revoking ends the link', async () => {
    const owner = await portalSession(app, unique('page-owner'));
    const email = unique('listed');
    const invitation = await invite(owner.apiKey, email, 'developer');
    const page = await app.http().get('/portal/members').set('cookie', owner.cookie).expect(200);
    expect(page.text).toContain('Pending invitations');
    expect(page.text).toContain(email);
    expect(page.text).toContain(`action="/portal/members/invitations/${invitation.id}/revoke"`);
    const viewer = await addMember(app, owner.apiKey, unique('page-viewer'), 'viewer');
    const viewerPage = await app
      .http()
      .get('/portal/members')
      .set('cookie', await memberSession(app, owner.accountId, viewer.memberId))
      .expect(200);
    expect(viewerPage.text).toContain(email);
    expect(viewerPage.text).not.toContain('/revoke"');

    const revoked = await postPortalForm(app, owner.cookie, `/portal/members/invitations/${invitation.id}/revoke`, {});
    expect(revoked.status).toBe(303);
    expect(revoked.headers.location).toBe('/portal/members');
    expect((await app.http().get('/portal/members').set('cookie', owner.cookie).expect(200)).text).not.toContain(email);
    await expect(join(invitation.invitationUrl, email)).rejects.toMatchObject({ reason: 'invitation_not_open' });
    // Posted again (two tabs): nothing to do, the same page.
    expect((await postPortalForm(app, owner.cookie, `/portal/members/invitations/${invitation.id}/revoke`, {})).status).toBe(303);
  });
});

/** Issue 45, L2: at most 3 invitation e-mails per address per 15 minutes, whichever accounts send them. */
describe(`invitation e-mails per address (${target})`, () => {
  let app: TestApp;
  let smtp: SmtpTestServer;

  beforeAll(async () => {
    smtp = await SmtpTestServer.start();
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, SMTP_URL: smtp.url, SMTP_FROM: 'Platform <no-reply@example.test>' } });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.stop();
  });

  it('a fourth invitation to an address within 15 minutes is refused (429, Retry-After), nothing made or sent; the window slides', async () => {
    const a = await createAccount(app);
    const b = await createAccount(app);
    const target = unique('flooded');
    const send = (key: string) => app.http().post('/v1/members/invitations').set(bearer(key)).send({ email: target, role: 'viewer' });
    for (const key of [a.apiKey, b.apiKey, a.apiKey]) {
      const sent = await send(key).expect(201);
      expect(sent.body).toMatchObject({ emailed: true, invitationUrl: null });
    }
    expect(smtp.to(target)).toHaveLength(3);

    const refused = await send(b.apiKey).expect(429);
    expect(refused.body).toEqual(
      errorEnvelope(
        refused,
        429,
        'invitation_mail_limit',
        expect.stringMatching(/^This address got 3 invitation e-mails in the last 15 minutes already: invite it again in \d+ s$/),
      ),
    );
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(refused.body.message).toContain(`in ${retryAfter} s`);
    await expect(app.query(`SELECT count(*)::int AS n FROM member_invitations WHERE email = $1`, [target])).resolves.toEqual([{ n: 3 }]);
    // The refusal sends nothing: the answer came after the mail was (or would have been) handed over.
    expect(smtp.to(target)).toHaveLength(3);
    // Another address is not concerned.
    const other = unique('other');
    await app.http().post('/v1/members/invitations').set(bearer(b.apiKey)).send({ email: other, role: 'viewer' }).expect(201);
    await smtp.nextTo(other);

    // Once the oldest e-mail is 15 minutes old, one more goes.
    await app.query(
      `UPDATE member_invitations SET mailed_at = mailed_at - interval '15 minutes' WHERE id = (SELECT id FROM member_invitations WHERE email = $1 ORDER BY mailed_at LIMIT 1)`,
      [target],
    );
    expect((await send(b.apiKey).expect(201)).body.emailed).toBe(true);
    expect(smtp.to(target)).toHaveLength(4);
    await send(a.apiKey).expect(429);
  });

  it('invitations to one address at once are counted one after the other: 3 e-mails of 6 tries', async () => {
    const a = await createAccount(app);
    const target = unique('racing');
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => app.http().post('/v1/members/invitations').set(bearer(a.apiKey)).send({ email: target, role: 'viewer' })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 201, 201, 429, 429, 429]);
    expect(smtp.to(target)).toHaveLength(3);
  });
});
