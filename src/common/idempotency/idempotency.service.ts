import { Injectable, Logger } from '@nestjs/common';
import { IdempotencyError } from './idempotency.errors.js';
import { IdempotencyFingerprint, IdempotencyRepository } from './idempotency.repository.js';

/** Stored responses are replayed for 24 h. */
export const IDEMPOTENCY_RETENTION_SECONDS = 24 * 60 * 60;
/** A key still "in flight" after this long was left by a process that died; the same request may take it over. */
export const IDEMPOTENCY_ABANDONED_AFTER_SECONDS = 10 * 60;
const PURGE_BATCH = 5_000;

export type IdempotencyDecision = { replay: false } | { replay: true; statusCode: number; body: unknown } | { replay: true; notKept: true };

/** Stored in place of a body that must not be kept (see @ResponseNotKept). */
const NOT_KEPT_MARKER = '{"$notKept":true}';

/**
 * Idempotency-Key semantics (as Stripe's): the first request with a key runs and its successful
 * response is stored; the same key and body later get that response again; the same key with
 * another body or route, or while the first is still running, gets 409. Failed requests release
 * the key, so a corrected retry may reuse it.
 */
@Injectable()
export class IdempotencyService {
  private readonly logger = new Logger('Idempotency');

  constructor(private readonly keys: IdempotencyRepository) {}

  async begin(f: IdempotencyFingerprint): Promise<IdempotencyDecision> {
    // Two tries: the holder may release the key between our claim and our read.
    for (let attempt = 0; attempt < 2; attempt++) {
      if (await this.keys.claim(f, IDEMPOTENCY_RETENTION_SECONDS, IDEMPOTENCY_ABANDONED_AFTER_SECONDS)) return { replay: false };
      const held = await this.keys.find(f.accountId, f.key);
      if (!held) continue;
      if (held.method !== f.method || held.path !== f.path) {
        throw IdempotencyError.usedElsewhere(held.method, held.path);
      }
      if (held.requestHash !== f.requestHash) {
        throw IdempotencyError.bodyMismatch();
      }
      if (held.statusCode === null) break;
      if (held.responseBody === NOT_KEPT_MARKER) return { replay: true, notKept: true };
      return { replay: true, statusCode: held.statusCode, body: held.responseBody === null ? undefined : JSON.parse(held.responseBody) };
    }
    throw IdempotencyError.inFlight();
  }

  /** Stores the first response; `keepBody: false` stores only that the request ran (see @ResponseNotKept). */
  async complete(f: IdempotencyFingerprint, statusCode: number, body: unknown, keepBody = true): Promise<void> {
    await this.keys.complete(f, statusCode, !keepBody ? NOT_KEPT_MARKER : body === undefined ? null : JSON.stringify(body));
  }

  async release(f: IdempotencyFingerprint): Promise<void> {
    await this.keys.release(f);
  }

  /** Deletes keys older than the retention period, in batches. */
  async purgeExpired(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.keys.deleteExpired(IDEMPOTENCY_RETENTION_SECONDS, PURGE_BATCH);
      total += n;
      if (n < PURGE_BATCH) break;
    }
    if (total > 0) this.logger.log(`Purged ${total} expired idempotency key(s)`);
    return total;
  }

  /**
   * Erasure: forgets stored responses that are the resource `{ id: resourceId, ... }` (they can hold
   * personal data, e.g. a user's e-mail). Runs in the caller's transaction.
   */
  forgetResponsesOf(accountId: string, resourceIds: string[]): Promise<void> {
    return this.keys.deleteResponsesOf(accountId, resourceIds);
  }
}
