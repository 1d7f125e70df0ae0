import { HttpException, HttpStatus } from '@nestjs/common';
import { HttpErrorWithExtras } from '../common/errors/http-errors.js';

/** Why a generation failed. Mapped to HTTP in one place: `aiErrorToHttp`. */
export enum AiErrorCode {
  NotConfigured = 'not_configured',
  ModelUnavailable = 'model_unavailable',
  /** The upstream refused this server's own credentials (401/403): an operator problem, not the client's. */
  UpstreamAuth = 'upstream_auth',
  UpstreamRateLimited = 'upstream_rate_limited',
  /** 5xx, a malformed answer, or any other status the upstream should not have sent. */
  UpstreamFailed = 'upstream_failed',
  /** Connection refused, reset, DNS failure... */
  UpstreamUnreachable = 'upstream_unreachable',
  Timeout = 'timeout',
  /** The client went away; nobody is left to answer. */
  Aborted = 'aborted',
}

/**
 * A failed generation. Messages are written here, never copied from the upstream's body, which
 * may quote the prompt: they reach the client and the error log.
 */
export class AiError extends Error {
  constructor(
    readonly code: AiErrorCode,
    message: string,
    readonly details: { upstreamStatus?: number; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'AiError';
  }

  /** Worth one more try (non-streamed calls only): the upstream may well answer next time. */
  get retryable(): boolean {
    return this.code === AiErrorCode.UpstreamUnreachable || (this.code === AiErrorCode.UpstreamFailed && (this.details.upstreamStatus ?? 0) >= 500);
  }
}

export const NOT_CONFIGURED_MESSAGE = 'AI generation is not configured on this server';

const STATUS: Record<AiErrorCode, number> = {
  [AiErrorCode.NotConfigured]: HttpStatus.SERVICE_UNAVAILABLE,
  [AiErrorCode.ModelUnavailable]: HttpStatus.SERVICE_UNAVAILABLE,
  [AiErrorCode.UpstreamAuth]: HttpStatus.BAD_GATEWAY,
  [AiErrorCode.UpstreamRateLimited]: HttpStatus.TOO_MANY_REQUESTS,
  [AiErrorCode.UpstreamFailed]: HttpStatus.BAD_GATEWAY,
  [AiErrorCode.UpstreamUnreachable]: HttpStatus.BAD_GATEWAY,
  [AiErrorCode.Timeout]: HttpStatus.GATEWAY_TIMEOUT,
  // Nobody reads it; 499 is what proxies log for a client that closed the request.
  [AiErrorCode.Aborted]: 499,
};

export function aiErrorStatus(error: AiError): number {
  return STATUS[error.code];
}

/** The one place an AiError becomes an HTTP error (and so the `{ error, code, message }` body). */
export function aiErrorToHttp(error: AiError): HttpException {
  const status = aiErrorStatus(error);
  if (error.code === AiErrorCode.UpstreamRateLimited) {
    return new HttpErrorWithExtras(status, error.message, { headers: { 'retry-after': String(error.details.retryAfterSeconds ?? 60) } });
  }
  return new HttpException({ message: error.message }, status);
}

/** Anything a provider threw, as an AiError (unknown errors become 502s, never leak details). */
export function asAiError(err: unknown): AiError {
  if (err instanceof AiError) return err;
  return new AiError(AiErrorCode.UpstreamFailed, 'The AI provider failed');
}
