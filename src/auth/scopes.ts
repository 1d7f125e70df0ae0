/** Every scope a key or token can hold; `*` holds them all. */
export const SCOPES = [
  'apps:read',
  'apps:write',
  'deployments:write',
  'users:read',
  'users:write',
  'webhooks:read',
  'webhooks:write',
  'ai:generate',
  'analytics:read',
  'keys:write',
] as const;

export type Scope = (typeof SCOPES)[number];
export const ALL_SCOPES = '*';
export type GrantedScope = Scope | typeof ALL_SCOPES;

export function isKnownScope(value: string): value is GrantedScope {
  return value === ALL_SCOPES || (SCOPES as readonly string[]).includes(value);
}

export function hasScope(granted: readonly string[], needed: Scope): boolean {
  return granted.includes(ALL_SCOPES) || granted.includes(needed);
}
