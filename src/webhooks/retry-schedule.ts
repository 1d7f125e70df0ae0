import { formatDuration } from '../config/durations.js';

/** 1 try + 3 retries (the contract). */
export const MAX_ATTEMPTS = 4;
/** The most a receiver's `Retry-After` can hold a retry back. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;
/** Each wait is its length ±10 %, so the retries of a burst that failed together do not come back together. */
export const JITTER = 0.1;

/**
 * When a failed delivery is tried again. The schedule says when each of the 3 retries goes after the
 * first attempt's failure (5 min, 1 h, 24 h); each wait is the step to the next of those times from
 * the failure before it, ±10 %. A receiver's `Retry-After` (on a 429 or 503) can make a wait longer,
 * up to 24 h, never shorter.
 */
export class RetrySchedule {
  constructor(
    /** When each retry goes, in ms after the first attempt's failure (increasing). */
    readonly offsetsMs: number[],
  ) {}

  /**
   * The wait after try `attempt` (1 for the first) failed, before the next; undefined when no
   * retry is left (the fourth try, or a try by hand after those).
   */
  delayAfter(attempt: number, retryAfterMs?: number, random: () => number = Math.random): number | undefined {
    if (attempt < 1 || attempt >= MAX_ATTEMPTS) return undefined;
    const step = this.offsetsMs[attempt - 1] - (attempt > 1 ? this.offsetsMs[attempt - 2] : 0);
    const wait = Math.round(step * (1 - JITTER + 2 * JITTER * random()));
    return retryAfterMs === undefined ? wait : Math.max(wait, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
  }

  /** `5 min, 1 h and 24 h after the first failure`. */
  describe(): string {
    const times = this.offsetsMs.map(formatDuration);
    return `${times.slice(0, -1).join(', ')} and ${times.at(-1)} after the first failure`;
  }
}

/**
 * What a 429 or 503 answer's `Retry-After` asks for, in ms from `now`: delay-seconds (`120`) or an
 * HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`), at most 24 h, at least 0. Undefined for other
 * statuses and for a value that is neither.
 */
export function retryAfterMs(statusCode: number | undefined, header: string | undefined, now = Date.now()): number | undefined {
  if ((statusCode !== 429 && statusCode !== 503) || !header) return undefined;
  const value = header.trim();
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value) * 1000;
  else {
    // Only what looks like an HTTP date (a day name first): Date.parse alone takes "2" for the year 2001.
    const at = /^[A-Za-z]{3}/.test(value) ? Date.parse(value) : NaN;
    if (Number.isNaN(at)) return undefined;
    ms = at - now;
  }
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms));
}
