import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { RequestWithPrincipal } from '../common/request-context/principal.js';
import { AuthError } from '../auth/auth.errors.js';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard.js';
import { AdminTokenService } from './admin-token.service.js';

/** Lets a request through only with `Authorization: Bearer <admin token>`. */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(
    private readonly adminToken: AdminTokenService,
    private readonly rateLimit: RateLimitGuard,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<RequestWithPrincipal>();
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    if (match && this.adminToken.matches(match[1])) {
      request.operator = true;
      return true;
    }
    // Guessing the admin token costs the guesser's IP, in the failed-authentication bucket.
    await this.rateLimit.countFailedAuthentication(http.getRequest(), http.getResponse());
    throw AuthError.unauthenticated(Boolean(match), 'admin', match ? 'Invalid admin token' : 'Missing admin token: send Authorization: Bearer <ADMIN_TOKEN>');
  }
}
