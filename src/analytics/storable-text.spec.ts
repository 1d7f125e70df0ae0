import { isStorableText, storableText } from './storable-text.js';

describe('storableText', () => {
  it('drops NUL, other control characters and lone surrogates, and keeps the rest', () => {
    expect(storableText('/a\u0000b\u0007c\u007f\u009bd', 300)).toBe('/abcd');
    expect(storableText('x\ud800y\udc00z', 300)).toBe('xyz');
    expect(storableText('caf\u00e9 \u{1f600} \u4e2d', 300)).toBe('caf\u00e9 \u{1f600} \u4e2d');
  });

  it('cuts at code points, never between the halves of a pair', () => {
    expect(storableText('ab\u{1f600}\u{1f600}', 3)).toBe('ab\u{1f600}');
    expect(storableText('\u{1f600}'.repeat(400), 300)).toBe('\u{1f600}'.repeat(300));
    expect(storableText('a'.repeat(500), 300)).toHaveLength(300);
  });

  it('tells whether a value is stored as it is', () => {
    expect(isStorableText('plain \u{1f600}')).toBe(true);
    expect(isStorableText('a\u0000')).toBe(false);
    expect(isStorableText('a\udfff')).toBe(false);
  });
});
