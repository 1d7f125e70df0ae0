import type { Principal } from './principal.js';
import { type Role, roleAllows } from './roles.js';
import { RequestContextError } from './request-context.errors.js';

/** The acts only an owner performs (src/common/request-context/roles.ts), and how a refusal names each. */
export type OwnerAct = 'owners:manage' | 'account:delete';
const OWNER_ACTS: Readonly<Record<OwnerAct, string>> = {
  'owners:manage': "make, demote or remove an owner, or change the account's single sign-on",
  'account:delete': 'delete the account',
};

/**
 * The one check of every owner-only act (making, demoting or removing an owner; single sign-on
 * settings; deleting the account): the caller must be an owner *member*, signed in to the portal.
 * A credential never is — an API key or an OAuth access token answers 403 `owner_member_required`
 * even when an owner created it — so a key or token that leaks, or that a member made before a
 * demotion, can never take the account over. A portal session whose member's current role lacks
 * the act gets the module's own refusal, `refuseRole(role)` (`role` null: the member was removed).
 */
export function requireOwnerMember(principal: Principal, act: OwnerAct, refuseRole: (role: Role | null) => Error): void {
  if (principal.kind !== 'portal_session' || !principal.member) throw RequestContextError.ownerMemberRequired(OWNER_ACTS[act], principal.kind);
  const role = principal.member.role;
  if (role === null || !roleAllows(role, act)) throw refuseRole(role);
}
