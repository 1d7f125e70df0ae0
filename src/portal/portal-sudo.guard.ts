import { applyDecorators, CanActivate, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { PortalRedirect, type PortalRequest } from './portal-http.js';

const SUDO_RETURN = 'portalSudoReturn';
/** The "confirm your password" page; `?return=` names the page to go back to. */
export const CONFIRM_PASSWORD_PATH = '/portal/account/confirm-password';

/** Where the confirm-password page sends the member once they typed it: `returnTo`, a page of the portal. */
export function confirmPasswordPath(returnTo: string): string {
  return `${CONFIRM_PASSWORD_PATH}?return=${encodeURIComponent(returnTo)}`;
}

/**
 * A page of the portal to go back to after the password is confirmed: a path under /portal/ of
 * plain segments (no scheme, host, `//`, `..`, backslash or query), else the account page. Never an
 * address on another site.
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || value.length > 200) return '/portal/account';
  if (!/^\/portal\/[A-Za-z0-9_\-/]*$/.test(value) || value.includes('//')) return '/portal/account';
  return value;
}

/**
 * Sudo mode (as GitHub's): the route changes a sign-in factor, so the member must have typed their
 * password (or signed in) within the last 5 minutes — else the browser goes to the confirm-password
 * page, which returns to `returnTo` (the page the action is on). A stolen session, or a browser left
 * open, cannot change them.
 */
export const PortalSudo = (returnTo: string) => applyDecorators(SetMetadata(SUDO_RETURN, returnTo), UseGuards(PortalSudoGuard));

/** After PortalSessionGuard (it runs as a route's guard, after its controller's): see PortalSudo. */
@Injectable()
export class PortalSudoGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const signed = context.switchToHttp().getRequest<PortalRequest>().portalSigned;
    if (signed?.recentlyAuthenticated) return true;
    const returnTo = this.reflector.get<string | undefined>(SUDO_RETURN, context.getHandler()) ?? '/portal/account';
    throw new PortalRedirect(confirmPasswordPath(returnTo));
  }
}
