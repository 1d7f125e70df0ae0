/** Every scope a key or token can hold; `*` holds them all. */
export const SCOPES = [
  'apps:read',
  'apps:write',
  'deployments:write',
  'users:read',
  'users:write',
  'webhooks:read',
  'webhooks:write',
  'events:read',
  'ai:generate',
  'analytics:read',
  'billing:read',
  'keys:write',
  'members:read',
  'members:write',
  'audit:read',
] as const;

export type Scope = (typeof SCOPES)[number];
export const ALL_SCOPES = '*';
export type GrantedScope = Scope | typeof ALL_SCOPES;

export function hasScope(granted: readonly string[], needed: Scope): boolean {
  return granted.includes(ALL_SCOPES) || granted.includes(needed);
}
