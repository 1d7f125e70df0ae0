import type { Actor } from '../common/request-context/actor.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** A pending domain is checked every minute for its first hour… */
export const MINUTELY_FOR_MS = HOUR_MS;
/** …then hourly, until it is this old: then it is `failed`. */
export const FAIL_AFTER_MS = 7 * 24 * HOUR_MS;

/**
 * When a pending domain created at `createdAt` is checked next, after a check at `now` that did not
 * verify it: in a minute during its first hour, then in an hour; `'fail'` once it is 7 days old.
 */
export function nextCheck(createdAt: Date, now: Date): Date | 'fail' {
  const age = now.getTime() - createdAt.getTime();
  if (age >= FAIL_AFTER_MS) return 'fail';
  return new Date(now.getTime() + (age < MINUTELY_FOR_MS ? MINUTE_MS : HOUR_MS));
}

/** The first scheduled check of a new domain. */
export function firstCheck(createdAt: Date): Date {
  return new Date(createdAt.getTime() + MINUTE_MS);
}

/** A verified domain's proof is looked for again this often… */
export const RECHECK_VERIFIED_MS = 24 * HOUR_MS;
/** …and hourly once it was found missing, so a lapse comes within an hour of the grace period's end. */
export const RECHECK_MISSING_MS = HOUR_MS;

/**
 * After a check of a verified domain at `now`: the next check, or `'lapse'` once the proof has been
 * missing since `missingSince` for the whole grace period. `missingSince` null: the proof was there.
 */
export function nextRecheck(missingSince: Date | null, now: Date, graceMs: number): Date | 'lapse' {
  if (missingSince === null) return new Date(now.getTime() + RECHECK_VERIFIED_MS);
  const left = missingSince.getTime() + graceMs - now.getTime();
  if (left <= 0) return 'lapse';
  return new Date(now.getTime() + Math.min(RECHECK_MISSING_MS, left));
}

/**
 * A proven name's state after a re-check at `now` that found `result` (a DNS check's: custom domains and SSO domains
 * alike): the proof found (`verified`) ends the grace period; missing (`no_record`, `wrong_value`) starts it or lets it
 * run on; a resolver's failure proves nothing either way. Answers since when the proof is missing, and the next check
 * or `'lapse'`.
 */
export function afterRecheck(
  missingSince: Date | null,
  result: 'verified' | 'no_record' | 'wrong_value' | 'resolver_error',
  now: Date,
  graceMs: number,
): { missingSince: Date | null; next: Date | 'lapse' } {
  const since = result === 'verified' ? null : result === 'resolver_error' ? missingSince : (missingSince ?? now);
  return { missingSince: since, next: nextRecheck(since, now, graceMs) };
}

/** Who acts when the worker's scheduled DNS check verifies or lapses a name, as the audit log names it. */
export const SCHEDULED_CHECK: Actor = { type: 'operator', id: 'system', label: 'scheduled DNS check', ip: null };
