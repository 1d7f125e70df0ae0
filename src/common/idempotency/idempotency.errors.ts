import { type ErrorCode, errorCodes, PlatformError } from '../errors/platform-error.js';

export const IdempotencyErrorCode = errorCodes({
  InvalidKey: ['idempotency_key_invalid', 400],
  KeyUsedElsewhere: ['idempotency_key_used_elsewhere', 409],
  BodyMismatch: ['idempotency_key_body_mismatch', 409],
  InFlight: ['idempotency_key_in_flight', 409],
  ResponseNotKept: ['idempotent_response_not_kept', 409],
});
export type IdempotencyErrorCode = ErrorCode<typeof IdempotencyErrorCode>;

export class IdempotencyError extends PlatformError.of(IdempotencyErrorCode) {
  static invalidKey(): IdempotencyError {
    return new IdempotencyError(IdempotencyErrorCode.InvalidKey, 'Idempotency-Key must be 1-255 visible ASCII characters (a UUID is a good choice)');
  }

  static usedElsewhere(method: string, path: string): IdempotencyError {
    return new IdempotencyError(
      IdempotencyErrorCode.KeyUsedElsewhere,
      `Idempotency-Key was already used for another request (${method} ${path}); use a new key`,
    );
  }

  static bodyMismatch(): IdempotencyError {
    return new IdempotencyError(IdempotencyErrorCode.BodyMismatch, 'Idempotency-Key was already used with a different request body or query; use a new key');
  }

  static inFlight(): IdempotencyError {
    return new IdempotencyError(
      IdempotencyErrorCode.InFlight,
      'Idempotency-Key is in flight: a request with this key is still running; retry once it has finished',
      {
        headers: { 'retry-after': '1' },
      },
    );
  }

  static notKept(why: string): IdempotencyError {
    return new IdempotencyError(IdempotencyErrorCode.ResponseNotKept, `The request with this Idempotency-Key already ran; ${why}`);
  }
}
