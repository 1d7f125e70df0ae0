import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerRequest } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestWithPrincipal } from '../auth/auth.decorators.js';
import { HttpErrorWithExtras } from '../common/errors/http-errors.js';

export const RATE_LIMIT_MESSAGE = 'Rate limit reached. Retry in 60 seconds.';

/**
 * @nestjs/throttler, counted per credential across all routes (per IP before authentication),
 * with the contract's headers and 429 body. The buckets (`default`, `ai`) are set up in
 * rate-limit.module.ts; a route picks `ai` with @AiRateLimit().
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  /** Counts a request whose authentication failed against its IP; 429 once the IP is over the limit. */
  async countAnonymous(context: ExecutionContext): Promise<void> {
    const throttler = this.throttlers.find((t) => t.name === 'default');
    if (!throttler || (await this.shouldSkip(context))) return;
    await this.handleRequest({
      context,
      throttler,
      limit: throttler.limit as number,
      ttl: throttler.ttl as number,
      blockDuration: throttler.ttl as number,
      getTracker: (req) => this.getTracker(req),
      generateKey: (ctx, tracker, name) => this.generateKey(ctx, tracker, name),
    });
  }

  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    // Only the API is limited; health checks, metrics, docs and served sites are not.
    return !context.switchToHttp().getRequest<FastifyRequest>().url.startsWith('/v1/');
  }

  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const request = req as unknown as RequestWithPrincipal;
    return request.principal ? `cred:${request.principal.credentialId}` : `ip:${request.ip}`;
  }

  /**
   * One count per credential and bucket for the whole API, not one per route. The bucket is part of
   * the key so that spending the AI bucket never blocks the credential's other routes.
   */
  protected override generateKey(_context: ExecutionContext, tracker: string, bucket: string): string {
    return `${bucket}:${tracker}`;
  }

  protected override async handleRequest({ context, limit, ttl, throttler, blockDuration, getTracker, generateKey }: ThrottlerRequest): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const key = generateKey(context, await getTracker(request as unknown as Record<string, unknown>, context), throttler.name!);
    const { totalHits, timeToExpire, isBlocked } = await this.storageService.increment(key, ttl, limit, blockDuration, throttler.name!);
    const headers = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - totalHits)),
      'x-ratelimit-reset': String(timeToExpire),
    };
    if (isBlocked) {
      throw new HttpErrorWithExtras(429, RATE_LIMIT_MESSAGE, { headers: { ...headers, 'retry-after': String(Math.ceil(ttl / 1000)) } });
    }
    void reply.headers(headers);
    return true;
  }
}
