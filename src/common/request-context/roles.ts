import { SCOPES, type Scope } from './scopes.js';

/** The roles of an account's members, most powerful first. */
export const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What a role may do beyond scopes: `keys:own` creates and revokes one's own API keys (within the
 * role's scopes); `owners:manage` makes, demotes and removes owners and changes single sign-on;
 * `account:delete` deletes the account. The last two only in person: an owner signed in to the
 * portal, never a credential (`requireOwnerMember`, owner-member.ts).
 */
export type RoleAct = 'keys:own' | 'owners:manage' | 'account:delete';
export type Permission = Scope | RoleAct;

const VIEWER: readonly Permission[] = [
  'apps:read',
  'users:read',
  'webhooks:read',
  'events:read',
  'analytics:read',
  'billing:read',
  'members:read',
  'audit:read',
  'keys:own',
];
const DEVELOPER: readonly Permission[] = [...VIEWER, 'apps:write', 'deployments:write', 'users:write', 'webhooks:write', 'ai:generate'];
const ADMIN: readonly Permission[] = [...DEVELOPER, 'keys:write', 'members:write'];
const OWNER: readonly Permission[] = [...ADMIN, 'owners:manage', 'account:delete'];

/**
 * The one permission table: what each role allows, in the API (a key's scopes are checked against
 * its creator's role on every request) and in the portal alike. `viewer` reads everything but
 * secrets (keys, service accounts); `developer` adds apps, landing pages, deploys, domains,
 * webhooks and users; `admin` adds API keys, service accounts and members; only an `owner` manages
 * owners or deletes the account.
 */
export const PERMISSIONS: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  owner: new Set(OWNER),
  admin: new Set(ADMIN),
  developer: new Set(DEVELOPER),
  viewer: new Set(VIEWER),
};

export function roleAllows(role: Role, permission: Permission): boolean {
  return PERMISSIONS[role].has(permission);
}

/** The scopes a member of this role may put on a key (every scope: the role allows `*`). */
export function scopesOfRole(role: Role): Scope[] {
  return SCOPES.filter((scope) => roleAllows(role, scope));
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Whether `role` gives no more than `bound`: each role allows everything the roles after it in ROLES allow. */
export function roleWithin(role: Role, bound: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(bound);
}

/**
 * The most a credential no member created may do (the operator's first key of an account, keys and
 * service accounts made before creators were recorded): every scope, as an admin — never an owner's
 * acts, which no credential performs. It bounds, say, the invitations such a key sends.
 */
export const NO_CREATOR_ROLE: Role = 'admin';
