import { ago, count, size } from './portal-format.js';

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
    expect(size(4200)).toBe('4.2 kB');
    expect(size(482_133)).toBe('482 kB');
    expect(size(1_300_000)).toBe('1.3 MB');
    expect(count(1234567)).toBe('1,234,567');
  });
});
