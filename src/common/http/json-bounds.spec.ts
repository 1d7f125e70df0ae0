import { DEFAULT_JSON_LIMITS, jsonLimitCrossing, JsonLimits } from './json-bounds.js';

const limits = (over: Partial<JsonLimits> = {}): JsonLimits => ({ ...DEFAULT_JSON_LIMITS, ...over });
const objectOf = (keys: number) => JSON.stringify(Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i])));
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** What the scanner should count, from the parsed value: the most keys of one object, all values, the deepest nesting. */
function measure(value: unknown): { keys: number; values: number; depth: number } {
  let keys = 0;
  let values = 0;
  let depth = 0;
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length) {
    const [item, level] = pending.pop()!;
    values++;
    if (item === null || typeof item !== 'object') continue;
    depth = Math.max(depth, level + 1);
    const children = Array.isArray(item) ? item : Object.values(item);
    if (!Array.isArray(item)) keys = Math.max(keys, children.length);
    for (const child of children) pending.push([child, level + 1]);
  }
  return { keys, values, depth };
}

/** A random JSON value from a seeded generator: strings with quotes, escapes and brackets in them, numbers, literals. */
function randomValue(seed: number): unknown {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const strings = ['', 'plain', 'a "quoted" {[,:]} word', 'back\\slash\\', '\\"', 'ünïcödé 😀', '\u0001\n\t'];
  const build = (level: number): unknown => {
    const roll = next();
    if (level > 5 || roll < 0.3) return [1.5e-3, -0, true, false, null, ...strings][Math.floor(next() * (5 + strings.length))];
    const size = Math.floor(next() * 6);
    if (roll < 0.65) return Array.from({ length: size }, () => build(level + 1));
    return Object.fromEntries(Array.from({ length: size }, (_, i) => [strings[i % strings.length] + i, build(level + 1)]));
  };
  return build(0);
}

describe('the JSON limits scan', () => {
  it('lets a body at each limit through and names the limit one past it', () => {
    expect(jsonLimitCrossing(objectOf(1000), limits())).toBeUndefined();
    expect(jsonLimitCrossing(objectOf(1001), limits())).toMatchObject({ limit: 'maxKeys', max: 1000 });

    // 10,000 values: the array itself and 9,999 numbers.
    expect(jsonLimitCrossing(JSON.stringify(Array(9999).fill(7)), limits())).toBeUndefined();
    expect(jsonLimitCrossing(JSON.stringify(Array(10_000).fill(7)), limits())).toMatchObject({ limit: 'maxValues', max: 10_000 });

    expect(jsonLimitCrossing(nested(32), limits())).toBeUndefined();
    expect(jsonLimitCrossing(nested(33), limits())).toMatchObject({ limit: 'maxDepth', max: 32 });
    expect(jsonLimitCrossing(`{"a":${'{"b":'.repeat(32)}1${'}'.repeat(33)}`, limits())).toMatchObject({ limit: 'maxDepth' });
  });

  it('counts keys per object, not across objects, and keys are not values', () => {
    const twoObjects = `[${objectOf(1000)},${objectOf(1000)}]`;
    expect(jsonLimitCrossing(twoObjects, limits())).toBeUndefined();
    expect(jsonLimitCrossing(twoObjects, limits({ maxValues: 2003 }))).toBeUndefined(); // 2,000 numbers, 2 objects, 1 array
    expect(jsonLimitCrossing(twoObjects, limits({ maxValues: 2002 }))).toMatchObject({ limit: 'maxValues' });
  });

  it('does not count what is inside strings', () => {
    const tricky = JSON.stringify({ a: '{[{[{[ "quoted" ], , : }', b: '\\', c: '\\"}]', d: 'x'.repeat(10_000) });
    expect(jsonLimitCrossing(tricky, limits({ maxKeys: 4, maxValues: 5, maxDepth: 1 }))).toBeUndefined();
    expect(jsonLimitCrossing(tricky, limits({ maxKeys: 3 }))).toMatchObject({ limit: 'maxKeys' });
  });

  it('counts exactly what JSON.parse builds, for any JSON', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const value = randomValue(seed);
      const text = JSON.stringify(value, null, seed % 2 ? 2 : undefined);
      const { keys, values, depth } = measure(value);
      expect(jsonLimitCrossing(text, { maxKeys: keys, maxValues: values, maxDepth: depth })).toBeUndefined();
      if (keys > 0) expect(jsonLimitCrossing(text, { maxKeys: keys - 1, maxValues: values, maxDepth: depth })?.limit).toBe('maxKeys');
      expect(jsonLimitCrossing(text, { maxKeys: keys, maxValues: values - 1, maxDepth: depth })?.limit).toBe('maxValues');
      if (depth > 0) expect(jsonLimitCrossing(text, { maxKeys: keys, maxValues: values, maxDepth: depth - 1 })?.limit).toBe('maxDepth');
    }
  });

  it('stops at the first limit crossed, however much text follows', () => {
    const head = objectOf(1001).slice(0, -1);
    const crossing = jsonLimitCrossing(`${head},${'"more":1,'.repeat(100_000)}}`, limits());
    // The closing quote of the 1,001st key ("k1000"), not anywhere in the 100,000 keys after it.
    expect(crossing).toEqual({ limit: 'maxKeys', max: 1000, at: head.lastIndexOf('"k1000"') + 6 });

    expect(jsonLimitCrossing('['.repeat(200_000), limits())).toEqual({ limit: 'maxDepth', max: 32, at: 32 });
  });

  it('passes text that is not JSON to JSON.parse to refuse, without throwing', () => {
    for (const text of ['', '}}}]]]', '"unterminated', '{"a":', 'not json at all', '\\', '{,,,:::}']) {
      expect(() => jsonLimitCrossing(text, limits())).not.toThrow();
    }
    expect(jsonLimitCrossing('}}}' + nested(40), limits())).toBeUndefined(); // closes first: JSON.parse refuses it
  });
});
