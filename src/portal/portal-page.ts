import type { Principal } from '../common/request-context/principal.js';
import { type Actor, actorOf } from '../common/request-context/actor.js';
import { SCOPES } from '../common/request-context/scopes.js';
import { PERMISSIONS, type Permission, type Role } from '../common/request-context/roles.js';
import { PlatformError } from '../common/errors/platform-error.js';
import { RequestError } from '../common/errors/request-errors.js';
import type { PortalHtml } from './portal-pages.js';
import type { SessionMember } from './portal.repository.js';

/** A signed-in member, as the portal's pages see them. */
export interface Signed extends SessionMember {
  sessionId: string;
  csrf: string;
  /** The client's address (the audit log keeps its network). */
  ip: string;
}

export type Form = Record<string, string | string[] | undefined>;

/** What every signed-in page's layout needs: the session's CSRF token (the sign-out form), the role, and what it allows (the navigation shows only that). */
export function chrome(signed: Signed): { csrf: string; role: Role; can: Permission[] } {
  return { csrf: signed.csrf, role: signed.role, can: [...PERMISSIONS[signed.role]] };
}

/** What a page handler answers: a page, or where to go next (303: the browser then GETs it). */
export type PortalAnswer = PortalHtml | { redirect: string };

/** A portal session acting through the API's services: its member's role bounds it (see src/common/request-context/roles.ts), within its own account. */
export function portalPrincipal(signed: Signed): Principal {
  return {
    accountId: signed.accountId,
    credentialId: 'portal',
    kind: 'portal_session',
    scopes: ['*'],
    member: { id: signed.memberId, role: signed.role },
    label: signed.email,
  };
}

/** The signed-in member as the audit log records them. */
export function portalActor(signed: Signed): Actor {
  return actorOf(portalPrincipal(signed), signed.ip);
}

/** A form field as typed, surrounding spaces trimmed ('' when absent). Never cut: past `max` characters, a 400 naming the field (the page says why). */
export function text(form: Form, name: string, max = Infinity): string {
  const value = typeof form[name] === 'string' ? (form[name] as string).trim() : '';
  if (value.length > max) throw RequestError.invalid([`${name} must be at most ${max} characters long`]);
  return value;
}

/** The known scopes ticked in a form (a single checkbox arrives as a string), or `fallback` when none is. */
export function scopesOf(form: Form, fallback: string[]): string[] {
  const ticked = (Array.isArray(form.scopes) ? form.scopes : form.scopes ? [form.scopes] : []).filter((s) => (SCOPES as readonly string[]).includes(s));
  return ticked.length ? ticked : fallback;
}

/** For a revoke or erase of something already gone: nothing to do. */
export function ignoreNotFound(err: unknown): void {
  if (err instanceof PlatformError && err.status === 404) return;
  throw err;
}
