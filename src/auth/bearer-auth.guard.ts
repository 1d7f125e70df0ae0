import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyReply } from 'fastify';
import type { GuardedBeforeBody } from '../common/http/route-config.js';
import { IS_PUBLIC } from '../common/http/public.decorator.js';
import type { Principal, RequestWithPrincipal } from '../common/request-context/principal.js';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard.js';
import { AuthError } from './auth.errors.js';
import { CredentialsService } from './credentials.service.js';
import { requireScopes } from './scopes.guard.js';

/**
 * Global: every route needs an API key or OAuth access token unless marked @Public(); passport's
 * bearer strategy verifies those not in the credential cache. A refused credential counts against
 * the caller's IP in the failed-authentication bucket (429 once spent). A route whose body is large
 * (file uploads) is authenticated before its body is read instead (`guardBeforeBody`).
 */
@Injectable()
export class BearerAuthGuard extends AuthGuard('bearer') {
  constructor(
    private readonly reflector: Reflector,
    private readonly rateLimit: RateLimitGuard,
    private readonly credentials: CredentialsService,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    return this.authenticate(context);
  }

  private async authenticate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithPrincipal>();
    // Authenticated already, before its body was read.
    if (request.principal) return true;
    // Most requests: a credential verified moments ago, answered from the cache without a passport round.
    const cached = this.credentials.cached(request.headers.authorization);
    if (cached) {
      request.principal = cached;
      return true;
    }
    try {
      return (await super.canActivate(context)) as boolean;
    } catch (err) {
      const http = context.switchToHttp();
      await this.rateLimit.countFailedAuthentication(http.getRequest(), http.getResponse());
      throw err;
    }
  }

  /**
   * What the three global guards do, in their order (this authentication, the rate limit, the route's
   * scopes), from a Fastify hook that runs before the body is read (see `guardsBeforeBody` in
   * PlatformRouteConfig): an anonymous client cannot make the server read a 25 MiB upload. The guards
   * that run later find the request authenticated and counted.
   */
  async guardBeforeBody(request: RequestWithPrincipal, reply: FastifyReply, route: GuardedBeforeBody): Promise<void> {
    await this.authenticate(new ExecutionContextHost([request, reply]));
    await this.rateLimit.limitBeforeBody(request, reply, route.rateLimit);
    requireScopes(request.principal!, route.scopes);
  }

  override handleRequest<T = Principal>(err: unknown, principal: T | false, _info: unknown, context: ExecutionContext): T {
    if (err) throw err;
    const request = context.switchToHttp().getRequest<RequestWithPrincipal>();
    if (!principal) throw AuthError.unauthenticated(/^Bearer\s+\S/i.test(request.headers.authorization ?? ''));
    request.principal = principal as unknown as Principal;
    return principal;
  }
}
