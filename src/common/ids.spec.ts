import { newId, randomBase62 } from './ids.js';

describe('ids', () => {
  it('are prefixed and sort by creation time', () => {
    const a = newId('app', 1_700_000_000_000);
    const b = newId('app', 1_700_000_000_001);
    expect(a).toMatch(/^app_[0-9A-Z]{26}$/);
    expect(a < b).toBe(true);
  });

  it('do not repeat', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newId('x')));
    expect(ids.size).toBe(10_000);
  });

  it('random base62 has the asked length and alphabet', () => {
    const s = randomBase62(40);
    expect(s).toMatch(/^[0-9A-Za-z]{40}$/);
  });
});
