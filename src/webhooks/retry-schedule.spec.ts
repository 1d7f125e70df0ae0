import { MAX_RETRY_AFTER_MS, retryAfterMs, RetrySchedule } from './retry-schedule.js';

describe('RetrySchedule', () => {
  const schedule = new RetrySchedule([300_000, 3_600_000, 86_400_000]);

  it('waits the steps between 5 min, 1 h and 24 h after the first failure, then stops', () => {
    const mid = () => 0.5;
    expect([1, 2, 3].map((n) => schedule.delayAfter(n, undefined, mid))).toEqual([300_000, 3_300_000, 82_800_000]);
    expect(schedule.delayAfter(4, undefined, mid)).toBeUndefined();
    expect(schedule.delayAfter(5, undefined, mid)).toBeUndefined();
  });

  it('jitters each wait by ±10 %', () => {
    expect(schedule.delayAfter(1, undefined, () => 0)).toBe(270_000);
    expect(schedule.delayAfter(1, undefined, () => 0.999999)).toBe(330_000);
  });

  it('lets Retry-After lengthen a wait, never shorten it', () => {
    expect(schedule.delayAfter(1, 2_000, () => 0.5)).toBe(300_000);
    expect(schedule.delayAfter(1, 7_200_000, () => 0.5)).toBe(7_200_000);
    expect(schedule.delayAfter(1, 10 * MAX_RETRY_AFTER_MS, () => 0.5)).toBe(MAX_RETRY_AFTER_MS);
    expect(schedule.delayAfter(4, 2_000)).toBeUndefined();
  });

  it('says itself in words', () => {
    expect(schedule.describe()).toBe('5 min, 1 h and 24 h after the first failure');
    expect(new RetrySchedule([300, 600, 900]).describe()).toBe('300 ms, 600 ms and 900 ms after the first failure');
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');

  it('reads seconds and HTTP dates on 429 and 503 only', () => {
    expect(retryAfterMs(429, '2', now)).toBe(2000);
    expect(retryAfterMs(503, ' 120 ', now)).toBe(120_000);
    expect(retryAfterMs(503, 'Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs(500, '2', now)).toBeUndefined();
    expect(retryAfterMs(200, '2', now)).toBeUndefined();
    expect(retryAfterMs(429, undefined, now)).toBeUndefined();
  });

  it('caps at 24 h, floors at 0, and ignores what it cannot read', () => {
    expect(retryAfterMs(429, '999999999', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs(429, 'Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(429, '2.5', now)).toBeUndefined();
    expect(retryAfterMs(429, '-3', now)).toBeUndefined();
    expect(retryAfterMs(429, 'soon', now)).toBeUndefined();
  });
});
