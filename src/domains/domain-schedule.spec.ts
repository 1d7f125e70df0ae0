import { afterRecheck, FAIL_AFTER_MS, firstCheck, nextCheck, nextRecheck } from './domain-schedule.js';

describe('the re-check schedule of a pending domain', () => {
  const created = new Date('2026-11-25T10:00:00.000Z');
  const at = (ms: number) => new Date(created.getTime() + ms);

  it('checks every minute for the first hour', () => {
    expect(firstCheck(created)).toEqual(at(60_000));
    expect(nextCheck(created, at(60_000))).toEqual(at(120_000));
    expect(nextCheck(created, at(59 * 60_000))).toEqual(at(60 * 60_000));
  });

  it('then hourly', () => {
    expect(nextCheck(created, at(60 * 60_000))).toEqual(at(120 * 60_000));
    expect(nextCheck(created, at(6 * 24 * 3600_000))).toEqual(at(6 * 24 * 3600_000 + 3600_000));
  });

  it('fails it once it is 7 days old', () => {
    expect(nextCheck(created, at(FAIL_AFTER_MS - 1))).toBeInstanceOf(Date);
    expect(nextCheck(created, at(FAIL_AFTER_MS))).toBe('fail');
    expect(FAIL_AFTER_MS).toBe(7 * 24 * 3600_000);
  });
});

describe('the re-checks of a verified domain', () => {
  const now = new Date('2026-11-25T10:00:00.000Z');
  const grace = 72 * 3600_000;
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it('looks daily while the proof is there', () => {
    expect(nextRecheck(null, now, grace)).toEqual(new Date(now.getTime() + 24 * 3600_000));
  });

  it('hourly once it is missing, never past the end of the grace period', () => {
    expect(nextRecheck(now, now, grace)).toEqual(new Date(now.getTime() + 3600_000));
    expect(nextRecheck(ago(grace - 60_000), now, grace)).toEqual(new Date(now.getTime() + 60_000));
  });

  it('lapses it once the proof has been missing for the whole grace period', () => {
    expect(nextRecheck(ago(grace), now, grace)).toBe('lapse');
    expect(nextRecheck(ago(grace + 1), now, grace)).toBe('lapse');
  });
});

describe('after a re-check of a proven name', () => {
  const now = new Date('2026-11-25T10:00:00.000Z');
  const grace = 72 * 3600_000;
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it('the proof found ends the grace period; missing starts it or keeps its start; a resolver failure changes nothing', () => {
    expect(afterRecheck(ago(3600_000), 'verified', now, grace)).toEqual({ missingSince: null, next: new Date(now.getTime() + 24 * 3600_000) });
    expect(afterRecheck(null, 'no_record', now, grace)).toEqual({ missingSince: now, next: new Date(now.getTime() + 3600_000) });
    expect(afterRecheck(ago(3600_000), 'wrong_value', now, grace).missingSince).toEqual(ago(3600_000));
    expect(afterRecheck(null, 'resolver_error', now, grace)).toEqual({ missingSince: null, next: new Date(now.getTime() + 24 * 3600_000) });
    expect(afterRecheck(ago(grace), 'resolver_error', now, grace)).toEqual({ missingSince: ago(grace), next: 'lapse' });
    expect(afterRecheck(ago(grace), 'no_record', now, grace).next).toBe('lapse');
  });
});
