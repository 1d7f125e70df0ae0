import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

/** Why a generation failed (the error's `reason`, and the `outcome` of its ai_usage row). */
export const AiErrorCode = errorCodes({
  NotConfigured: ['not_configured', 503],
  /** A `model` this server does not offer (before any call: never an outcome). */
  ModelNotFound: ['model_not_found', 400],
  ModelUnavailable: ['model_unavailable', 503],
  /** The credential's AI budget (aiTokensPerDay / aiTokensPerMonth) has no room for the call (before any call: never an outcome). */
  BudgetExhausted: ['ai_budget_exhausted', 429],
  /** An input longer than the model reads (a local model's embeddings). */
  InputTooLong: ['input_too_long', 400],
  /** The upstream refused this server's own credentials (401/403): an operator problem, not the client's. */
  UpstreamAuth: ['upstream_auth', 502],
  UpstreamRateLimited: ['upstream_rate_limited', 429],
  /** 5xx, a malformed answer, or any other status the upstream should not have sent. */
  UpstreamFailed: ['upstream_failed', 502],
  /** Connection refused, reset, DNS failure... */
  UpstreamUnreachable: ['upstream_unreachable', 502],
  Timeout: ['timeout', 504],
  /** The client went away; nobody is left to answer. Nobody reads the status; 499 is what proxies log for a client that closed the request. */
  Aborted: ['aborted', 499],
});
export type AiErrorCode = ErrorCode<typeof AiErrorCode>;

/**
 * A failed generation. Messages are written here, never copied from the upstream's body, which
 * may quote the prompt: they reach the client and the error log. `reason` is also the outcome
 * recorded in ai_usage.
 */
export class AiError extends PlatformError.of(AiErrorCode) {
  constructor(
    reason: AiErrorCode,
    message: string,
    readonly details: { upstreamStatus?: number; retryAfterSeconds?: number; hopeless?: boolean } = {},
  ) {
    // An upstream rate limit is passed on with its Retry-After (60 s when it gave none); a spent budget says when it renews
    // and, with OpenAI's clients' `x-should-retry: false`, that their retries within seconds would not help.
    const limited = reason === AiErrorCode.UpstreamRateLimited || reason === AiErrorCode.BudgetExhausted;
    super(
      reason,
      message,
      limited ? { headers: { 'retry-after': String(details.retryAfterSeconds ?? 60), ...(details.hopeless ? { 'x-should-retry': 'false' } : {}) } } : {},
    );
  }

  /**
   * 429: the credential's AI budget has no room for the call. Used up (or too little left): Retry-After
   * until the period renews. Held by the caller's calls in flight (which hold the most they may use,
   * and mostly settle for less): Retry-After 1.
   */
  static budgetExhausted(b: {
    whose: string;
    period: 'day' | 'month';
    limit: number;
    used: number;
    held: number;
    wanted: number;
    resetsAt: Date;
    now?: number;
  }): AiError {
    const budget = `The AI budget of this ${b.whose} (${b.limit} tokens a ${b.period})`;
    const renews = b.resetsAt.toISOString().replace('.000Z', 'Z');
    const left = Math.max(0, b.limit - b.used - b.held);
    if (b.used + b.wanted <= b.limit) {
      return new AiError(
        AiErrorCode.BudgetExhausted,
        `${budget} is held by its calls in flight (${b.held} tokens); this request may use ${b.wanted}. Retry in a moment.`,
        { retryAfterSeconds: 1 },
      );
    }
    const seconds = Math.max(1, Math.ceil((b.resetsAt.getTime() - (b.now ?? Date.now())) / 1000));
    const message =
      left > 0
        ? `${budget} has ${left} left, less than the ${b.wanted} this request may use; it renews at ${renews}.`
        : `${budget} is used up; it renews at ${renews}.`;
    return new AiError(AiErrorCode.BudgetExhausted, message, { retryAfterSeconds: seconds, hopeless: true });
  }

  static modelNotFound(id: string, known: string[]): AiError {
    const listed = known.slice(0, 10).join(', ') + (known.length > 10 ? ', …' : '');
    return new AiError(
      AiErrorCode.ModelNotFound,
      `model ${JSON.stringify(id.slice(0, 200))} is not a model of this server (GET /v1/models lists them: ${listed})`,
    );
  }

  /** Worth one more try (non-streamed calls only): the upstream may well answer next time. */
  get retryable(): boolean {
    return this.reason === AiErrorCode.UpstreamUnreachable || (this.reason === AiErrorCode.UpstreamFailed && (this.details.upstreamStatus ?? 0) >= 500);
  }
}

export const NOT_CONFIGURED_MESSAGE = 'AI generation is not configured on this server';

/** Anything a provider threw, as an AiError (unknown errors become 502s, never leak details). */
export function asAiError(err: unknown): AiError {
  if (err instanceof AiError) return err;
  return new AiError(AiErrorCode.UpstreamFailed, 'The AI provider failed');
}
