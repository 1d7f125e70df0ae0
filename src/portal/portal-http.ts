import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformRouteConfig } from '../app.setup.js';
import type { PortalAnswer, Signed } from './portal-page.js';
import { sendPortalPage } from './portal-session.js';

export const SESSION_COOKIE = 'portal_session';
/** Before sign-in, the login and invite forms' CSRF tokens are bound to this random cookie (a signed double submit). */
export const PRE_COOKIE = 'portal_pre';
/** The portal's forms post application/x-www-form-urlencoded. */
export const FORM: PlatformRouteConfig = { acceptsForm: true };

/** A portal request once PortalSessionGuard let it through: who is signed in. */
export interface PortalRequest extends FastifyRequest {
  portalSigned?: Signed;
}

/** Thrown anywhere in a portal route: the browser goes there (303), nothing else is said. */
export class PortalRedirect extends Error {
  constructor(readonly location: string) {
    super(`redirect to ${location}`);
  }
}

/** A form without its CSRF token (or with another session's): a 403 page, nothing changed. */
export class PortalFormExpired extends Error {
  constructor(readonly back: string) {
    super('form expired');
  }
}

/** The signed-in developer of a route behind PortalSessionGuard. */
export const SignedIn = createParamDecorator((_data: unknown, ctx: ExecutionContext): Signed => {
  const signed = ctx.switchToHttp().getRequest<PortalRequest>().portalSigned;
  if (!signed) throw new PortalRedirect('/portal/login');
  return signed;
});

/** A query parameter as one string (the first, when repeated), or undefined. */
export function queryOf(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, string | string[] | undefined> | undefined)?.[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Sends a page with the portal's headers, or the redirect (303: the browser then GETs it). */
export async function sendPortal(reply: FastifyReply, answer: PortalAnswer): Promise<void> {
  if ('redirect' in answer) return void (await reply.redirect(answer.redirect, 303));
  return sendPortalPage(reply, answer);
}
