import { ago, count, meterRow, size } from './portal-format.js';

describe('portal formats', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  it('says how long ago, then the date', () => {
    expect(ago('2026-11-25T11:59:50Z', now)).toBe('just now');
    expect(ago('2026-11-25T11:55:00Z', now)).toBe('5 minutes ago');
    expect(ago('2026-11-25T11:00:00Z', now)).toBe('1 hour ago');
    expect(ago('2026-11-22T12:00:00Z', now)).toBe('3 days ago');
    expect(ago('2026-09-01T12:00:00Z', now)).toBe('on 2026-09-01');
  });
  it('writes sizes and counts as people read them', () => {
    expect(size(812)).toBe('812 B');
    expect(size(4200)).toBe('4.1 KiB');
    expect(size(482_133)).toBe('471 KiB');
    expect(size(1_300_000)).toBe('1.2 MiB');
    expect(size(10 * 1024 ** 3)).toBe('10 GiB');
    expect(count(1234567)).toBe('1,234,567');
  });
  it('names meters as people do, with units', () => {
    expect(meterRow({ meter: 'bandwidth.bytes', used: 1_300_000, included: 10_000_000_000, percent: 0, hard: false })).toMatchObject({
      label: 'Bandwidth',
      used: '1.2 MiB',
      included: '9.3 GiB',
    });
    expect(meterRow({ meter: 'deployments', used: 1, included: 100, percent: 1, hard: true })).toMatchObject({
      label: 'Deployments',
      used: '1 deployment',
      included: '100 deployments',
    });
    expect(meterRow({ meter: 'ai.tokens', used: 0, included: null, percent: null, hard: false }).included).toBe('unlimited');
    // Storage is a level (what is kept now), not the month's sum.
    expect(meterRow({ meter: 'storage.bytes', used: 3 * 2 ** 20, included: 2 * 2 ** 30, percent: 0.1, hard: true })).toMatchObject({
      label: 'Storage',
      used: '3 MiB',
      included: '2 GiB',
      now: true,
    });
    expect(meterRow({ meter: 'bandwidth.bytes', used: 0, included: null, percent: null, hard: false }).now).toBe(false);
  });
});
