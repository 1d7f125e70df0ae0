import { ApiKeysService } from '../../src/auth/api-keys.service.js';
import type { Role } from '../../src/common/request-context/roles.js';
import { MembersService } from '../../src/members/members.service.js';
import { PortalAuthService } from '../../src/portal/portal-auth.service.js';
import { csrfOf } from './portal-session.js';
import type { TestApp } from './test-app.js';

export interface TestMember {
  memberId: string;
  email: string;
  /** A key the member made for themselves (as in the portal): within their role, with all its scopes by default. */
  apiKey: string;
}

/** Who invites: an API key (through `POST /v1/members/invitations`), or a portal session's cookie (through the members page, as an owner must to invite an owner). */
export type Inviter = string | { cookie: string };

/**
 * Invites `email` with `role` (through the API with `inviter`'s key, or the portal's members page
 * with its session), joins through the invitation's link, and gives the new member a key of their
 * own as the portal does.
 */
export async function addMember(app: TestApp, inviter: Inviter, email: string, role: Role, scopes?: string[]): Promise<TestMember> {
  const url = typeof inviter === 'string' ? await apiInvitation(app, inviter, email, role) : await portalInvitation(app, inviter.cookie, email, role);
  return joinMember(app, url, email, role, scopes);
}

/** Joins through an invitation link (`addMember`'s, or one read from the e-mail when the server mails it) and gives the new member a key of their own. */
export async function joinMember(app: TestApp, url: string, email: string, role: Role, scopes?: string[]): Promise<TestMember> {
  const token = new URL(url).pathname.split('/').pop()!;
  const member = await app.server.app.get(MembersService).join(token, email, '127.0.0.1');
  const created = await app.server.app
    .get(ApiKeysService)
    .createFor(
      { accountId: member.accountId, credentialId: 'portal', kind: 'portal_session', scopes: ['*'], member: { id: member.id, role }, label: email },
      { type: 'member', id: member.id, label: email, ip: null },
      `${role} key`,
      scopes,
    );
  return { memberId: member.id, email, apiKey: created.key };
}

async function apiInvitation(app: TestApp, key: string, email: string, role: Role): Promise<string> {
  const invited = await app.http().post('/v1/members/invitations').set('authorization', `Bearer ${key}`).send({ email, role }).expect(201);
  return invited.body.invitationUrl as string;
}

async function portalInvitation(app: TestApp, cookie: string, email: string, role: Role): Promise<string> {
  const invited = await postPortalForm(app, cookie, '/portal/members/invitations', { email, role });
  if (invited.status !== 200) throw new Error(`the members page answered ${invited.status} to the invitation: ${invited.text}`);
  const url = /id="invitation-url" readonly value="([^"]+)"/.exec(invited.text)?.[1];
  if (!url) throw new Error('no invitation link on the page (does the server e-mail it?)');
  return url.replaceAll('&amp;', '&');
}

/** A portal session of this member, started as a sign-in would start it; answers its `portal_session=…` cookie. */
export async function memberSession(app: TestApp, accountId: string, memberId: string): Promise<string> {
  return `portal_session=${await app.server.app.get(PortalAuthService).startSession(accountId, memberId)}`;
}

/** Posts a signed-in portal form with the session's CSRF token (read from a page first). */
export async function postPortalForm(app: TestApp, cookie: string, path: string, form: Record<string, string | string[]>) {
  const csrf = csrfOf((await app.http().get('/portal/account').set('cookie', cookie).expect(200)).text);
  return app
    .http()
    .post(path)
    .set('cookie', cookie)
    .type('form')
    .send({ _csrf: csrf, ...form });
}
