import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { PortalAuthService } from './portal-auth.service.js';
import { PortalFormExpired, PortalRedirect, PortalRequest } from './portal-http.js';
import { signedInOf } from './portal-session.js';
import type { Form } from './portal-page.js';

/**
 * Every signed-in page of the portal: without a live session, the browser goes to /portal/login (303);
 * a form (any method but GET and HEAD) without the session's CSRF token answers the 403 page and changes
 * nothing. Lets the request through with `portalSigned` set (see SignedIn).
 */
@Injectable()
export class PortalSessionGuard implements CanActivate {
  constructor(private readonly auth: PortalAuthService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<PortalRequest>();
    const signed = await signedInOf(this.auth, request);
    if (!signed) throw new PortalRedirect('/portal/login');
    request.portalSigned = signed;
    if (request.method !== 'GET' && request.method !== 'HEAD' && !this.auth.csrfValid(signed.sessionId, (request.body as Form | undefined)?._csrf)) {
      throw new PortalFormExpired('/portal/');
    }
    return true;
  }
}
