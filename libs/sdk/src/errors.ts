/** Every API error (and network failure, status 0) is a PlatformError; `kind` tells them apart. */
export type PlatformErrorKind = 'validation' | 'auth' | 'not_found' | 'conflict' | 'rate_limit' | 'server' | 'connection' | 'other';

export class PlatformError extends Error {
  readonly kind: PlatformErrorKind;
  /** Why, as a stable machine-readable string (`app_not_found`, `idempotency_key_in_flight`…), when the service gave one. */
  readonly reason?: string;

  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly requestId?: string,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
    this.kind = kindOf(status);
    const reason = body && typeof body === 'object' ? (body as { reason?: unknown }).reason : undefined;
    if (typeof reason === 'string') this.reason = reason;
  }
}

/** 400: the message names every bad field. */
export class ValidationError extends PlatformError {}
/** 401 (and 403, a missing scope: `status` tells which). */
export class AuthError extends PlatformError {}
export class NotFoundError extends PlatformError {}
export class ConflictError extends PlatformError {}
export class RateLimitError extends PlatformError {
  /** Seconds the server asked to wait. */
  retryAfter?: number;
}
/** 5xx, including the AI upstream's 502/503/504. */
export class ServerError extends PlatformError {}
/** No answer at all: refused, reset, timed out. */
export class ConnectionError extends PlatformError {}

function kindOf(status: number): PlatformErrorKind {
  if (status === 0) return 'connection';
  if (status === 400) return 'validation';
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate_limit';
  if (status >= 500) return 'server';
  return 'other';
}

export function errorFor(status: number, body: unknown, requestId?: string, retryAfter?: number): PlatformError {
  const b = (body && typeof body === 'object' ? body : {}) as { message?: unknown; code?: unknown };
  const message = typeof b.message === 'string' ? b.message : `HTTP ${status}`;
  const code = typeof b.code === 'number' ? b.code : status;
  const args = [status, code, message, requestId, body] as const;
  if (status === 400) return new ValidationError(...args);
  if (status === 401 || status === 403) return new AuthError(...args);
  if (status === 404) return new NotFoundError(...args);
  if (status === 409) return new ConflictError(...args);
  if (status === 429) {
    const e = new RateLimitError(...args);
    e.retryAfter = retryAfter;
    return e;
  }
  if (status >= 500) return new ServerError(...args);
  return new PlatformError(...args);
}
