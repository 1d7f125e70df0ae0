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
