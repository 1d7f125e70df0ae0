import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { catchError, concatMap, from, map, Observable, of, throwError } from 'rxjs';
import type { RequestWithPrincipal } from '../request-context/principal.js';
import { IdempotencyError } from './idempotency.errors.js';
import { IdempotencyFingerprint } from './idempotency.repository.js';
import { IdempotencyService } from './idempotency.service.js';
import { RESPONSE_NOT_KEPT } from './idempotent.decorator.js';
import { IDEMPOTENCY_KEY_PATTERN, requestBodyHash } from './request-hash.js';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

/**
 * Every POST behind the bearer guard honours an `Idempotency-Key` header (the key is per account):
 * IdempotencyRoutes puts this interceptor on each POST route. Without the header the route runs as
 * usual. Guards (auth, scopes, rate limit) run before this; the validation pipe and the handler run
 * inside it, so a 400 releases the key too.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly reflector: Reflector,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const request = http.getRequest<RequestWithPrincipal>();
    const reply = http.getResponse<FastifyReply>();
    const header = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (header === undefined || request.method !== 'POST' || !request.principal) return next.handle();
    if (typeof header !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(header)) throw IdempotencyError.invalidKey();
    const notKept = this.reflector.get<string | undefined>(RESPONSE_NOT_KEPT, context.getHandler());

    const [path, query = ''] = request.url.split('?', 2);
    const fingerprint: IdempotencyFingerprint = {
      accountId: request.principal.accountId,
      key: header,
      method: request.method,
      path: path.slice(0, 2048),
      requestHash: requestBodyHash(request.body, query),
    };
    const decision = await this.idempotency.begin(fingerprint);
    if (decision.replay) {
      if ('notKept' in decision) throw IdempotencyError.notKept(notKept ?? 'its response is not kept');
      void reply.status(decision.statusCode).header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return of(decision.body);
    }

    return next.handle().pipe(
      // The route's status is on the reply already (Nest sets it before interceptors run).
      concatMap((body) => from(this.finish(fingerprint, reply.statusCode, body, notKept === undefined)).pipe(map(() => body))),
      catchError((err: unknown) => from(this.giveBack(fingerprint)).pipe(concatMap(() => throwError(() => err)))),
    );
  }

  // The write has happened: a failure to store its response must not turn it into an error for
  // the client (whose retry would then wait for the key to be abandoned).
  private async finish(f: IdempotencyFingerprint, statusCode: number, body: unknown, keepBody: boolean): Promise<void> {
    try {
      await this.idempotency.complete(f, statusCode, body, keepBody);
    } catch (err) {
      this.logger.error({ err }, 'Could not store the response of an idempotent request');
    }
  }

  private async giveBack(f: IdempotencyFingerprint): Promise<void> {
    try {
      await this.idempotency.release(f);
    } catch (err) {
      this.logger.error({ err }, 'Could not release an idempotency key');
    }
  }
}
