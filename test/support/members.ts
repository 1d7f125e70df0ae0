import { ApiKeysService } from '../../src/auth/api-keys.service.js';
import type { Role } from '../../src/common/request-context/roles.js';
import { MembersService } from '../../src/members/members.service.js';
import type { TestApp } from './test-app.js';

export interface TestMember {
  memberId: string;
  email: string;
  /** A key the member made for themselves (as in the portal): within their role, with all its scopes by default. */
  apiKey: string;
}

/**
 * Invites `email` with `role` through the API (with `inviterKey`), joins through the invitation's
 * link, and gives the new member a key of their own as the portal does.
 */
export async function addMember(app: TestApp, inviterKey: string, email: string, role: Role, scopes?: string[]): Promise<TestMember> {
  const invited = await app.http().post('/v1/members/invitations').set('authorization', `Bearer ${inviterKey}`).send({ email, role }).expect(201);
  const token = new URL(invited.body.invitationUrl as string).pathname.split('/').pop()!;
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
