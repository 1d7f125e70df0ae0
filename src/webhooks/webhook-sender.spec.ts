import { RESPONSE_BODY_LIMIT, responseExcerpt } from './webhook-sender.js';

describe('responseExcerpt', () => {
  const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

  it('keeps a short answer whole', () => {
    expect(responseExcerpt(Buffer.from('thanks'))).toBe('thanks');
    expect(responseExcerpt(Buffer.alloc(0))).toBe('');
  });

  it('keeps 1 KiB of ASCII', () => {
    expect(responseExcerpt(Buffer.from('x'.repeat(5000)))).toBe('x'.repeat(RESPONSE_BODY_LIMIT));
  });

  it('cuts before a character the limit would split, for 2-, 3- and 4-byte characters', () => {
    for (const [char, size] of [
      ['é', 2],
      ['€', 3],
      ['😀', 4],
    ] as const) {
      for (let pad = 0; pad < size; pad++) {
        const text = 'a'.repeat(pad) + char.repeat(800);
        const kept = responseExcerpt(Buffer.from(text));
        expect(bytes(kept)).toBeLessThanOrEqual(RESPONSE_BODY_LIMIT);
        expect(bytes(kept)).toBeGreaterThan(RESPONSE_BODY_LIMIT - size);
        expect(text.startsWith(kept)).toBe(true);
        expect(kept).not.toContain('\uFFFD');
      }
    }
  });

  it('drops NUL characters, and reads bytes that are not UTF-8 as U+FFFD', () => {
    expect(responseExcerpt(Buffer.from('a\u0000b\u0000'))).toBe('ab');
    expect(responseExcerpt(Buffer.from([0x61, 0xff, 0x62]))).toBe('a\uFFFDb');
    // Continuation bytes with no lead byte, across the limit: cut at the limit.
    const junk = Buffer.alloc(2000, 0x80);
    expect(responseExcerpt(junk).length).toBeGreaterThan(0);
    expect(bytes(responseExcerpt(junk))).toBeLessThanOrEqual(3 * RESPONSE_BODY_LIMIT);
  });
});
