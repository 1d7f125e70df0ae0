import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectThrottlerOptions, InjectThrottlerStorage, ThrottlerGuard, type ThrottlerModuleOptions } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestWithPrincipal } from '../common/request-context/principal.js';
import { AccountLimits } from '../common/account-limits.js';
import { ApiRequestListener } from '../common/api-request-listener.js';
import { AppConfig } from '../config/app-config.js';
import { RATE_LIMIT_BUCKET, type RateLimitBucket } from './rate-limit.decorators.js';
import { type Hit, RateCounters } from './rate-counters.js';
import { accountKey, RateLimiter, WINDOW_MS } from './rate-limiter.js';

/**
 * The API's rate limits (@nestjs/throttler's guard, with our counting). Per request, in one
 * counter round trip at most (none for generous buckets, see LocalFirstCounters): the
 * credential's bucket and its account's (so minting keys does not multiply a quota), in the
 * `default` or `ai` bucket (@AiRateLimit); file uploads (@UploadRateLimit) count in their account's
 * `uploads` bucket only (RATE_LIMIT_UPLOADS_MAX), never in the general one. Before authentication (public
 * routes: the token endpoint, admin) the client IP counts; failed authentications count in their
 * own per-IP bucket (`countFailedAuthentication`) so they never block anyone's token or admin calls.
 * Whether a request is limited depends on the route that runs, not on how its URL is spelled.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  /** Requests counted before their body was read (uploads): the guard does not count them again. */
  private readonly countedBeforeBody = new WeakSet<FastifyRequest>();

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly counters: RateCounters,
    reflector: Reflector,
    private readonly accounts: AccountLimits,
    private readonly config: AppConfig,
    private readonly apiRequests: ApiRequestListener,
    private readonly limiter: RateLimiter,
  ) {
    super(options, counters, reflector);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithPrincipal>();
    if (!isApiRoute(request) || this.countedBeforeBody.has(request)) return true;
    const bucket = (this.reflector.get<RateLimitBucket | undefined>(RATE_LIMIT_BUCKET, context.getHandler()) ?? 'default') as RateLimitBucket;
    await this.limit(request, context.switchToHttp().getResponse<FastifyReply>(), bucket);
    return true;
  }

  /** The same count, from the hook that authenticates an upload before its body is read (the guard then lets it through). */
  async limitBeforeBody(request: RequestWithPrincipal, reply: FastifyReply, bucket: RateLimitBucket): Promise<void> {
    this.countedBeforeBody.add(request);
    if (isApiRoute(request)) await this.limit(request, reply, bucket);
  }

  private async limit(request: RequestWithPrincipal, reply: FastifyReply, bucket: RateLimitBucket): Promise<void> {
    const principal = request.principal;
    const hits: Hit[] = [];
    if (principal) {
      this.apiRequests.onApiRequest(principal.accountId); // billing's api.requests meter (counted in memory)
      if (bucket === 'uploads') {
        // Per account only: every credential of a deploy's uploads together.
        hits.push({ key: accountKey(bucket, principal.accountId), limit: this.config.RATE_LIMIT_UPLOADS_MAX, ttlMs: WINDOW_MS });
      } else {
        const limits = this.accounts.limitsFor(principal.accountId);
        const account = limits instanceof Promise ? await limits : limits;
        hits.push({ key: `${bucket}:cred:${principal.credentialId}`, limit: this.credentialLimit(bucket), ttlMs: WINDOW_MS });
        hits.push({
          key: accountKey(bucket, principal.accountId),
          limit: bucket === 'ai' ? account.aiRequestsPerMinute : account.requestsPerMinute,
          ttlMs: WINDOW_MS,
        });
      }
    } else {
      hits.push({ key: `${bucket}:ip:${request.ip}`, limit: this.credentialLimit(bucket), ttlMs: WINDOW_MS });
    }
    await this.enforce(reply, hits);
  }

  private credentialLimit(bucket: RateLimitBucket): number {
    return bucket === 'ai' ? this.config.RATE_LIMIT_AI_MAX : bucket === 'uploads' ? this.config.RATE_LIMIT_UPLOADS_MAX : this.config.RATE_LIMIT_MAX;
  }

  /** A request whose credential was refused: counted against its IP in a bucket of its own; 429 once that is spent. */
  async countFailedAuthentication(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!isApiRoute(request)) return;
    await this.enforce(reply, [{ key: `auth-failures:ip:${request.ip}`, limit: this.config.RATE_LIMIT_MAX, ttlMs: WINDOW_MS }]);
  }

  /** Counts the hits; sets the headers of the tightest bucket; 429 when any is spent. */
  private async enforce(reply: FastifyReply, hits: Hit[]): Promise<void> {
    void reply.headers(await this.limiter.consume(hits));
  }
}

/** The API is what runs under /v1 — judged by the matched route (`/%761/apps` matches `/v1/apps`), not by the raw URL. */
function isApiRoute(request: FastifyRequest): boolean {
  return request.routeOptions.url?.startsWith('/v1/') ?? false;
}
