import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { BearerUnauthorizedException } from '../common/errors/http-errors.js';
import { IS_PUBLIC } from '../common/http/public.decorator.js';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard.js';
import type { RequestWithPrincipal } from './auth.decorators.js';
import { Principal } from './principal.js';

/**
 * Global: every route needs an API key or OAuth access token unless marked @Public().
 * A failed attempt still counts against the caller's IP, so a flood of bad keys is throttled.
 */
@Injectable()
export class BearerAuthGuard extends AuthGuard('bearer') {
  constructor(
    private readonly reflector: Reflector,
    private readonly rateLimit: RateLimitGuard,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    try {
      return (await super.canActivate(context)) as boolean;
    } catch (err) {
      await this.rateLimit.countAnonymous(context);
      throw err;
    }
  }

  override handleRequest<T = Principal>(err: unknown, principal: T | false, _info: unknown, context: ExecutionContext): T {
    if (err) throw err;
    const request = context.switchToHttp().getRequest<RequestWithPrincipal>();
    if (!principal) {
      const sent = /^Bearer\s+\S/i.test(request.headers.authorization ?? '');
      throw new BearerUnauthorizedException(
        sent ? 'Invalid, expired or revoked credential' : 'Missing credential: send Authorization: Bearer <API key or access token>',
        sent,
      );
    }
    request.principal = principal as unknown as Principal;
    return principal;
  }
}
