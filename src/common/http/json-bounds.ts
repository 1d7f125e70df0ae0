/**
 * How complex a JSON body may be. Past these, the work done on a body stops growing with it:
 * class-transformer's key handling is quadratic in an object's keys (70,000 keys blocked the event
 * loop for 8 s), and validation, the string check and the error list are linear in the values.
 */
export interface JsonLimits {
  /** Keys in one object. */
  maxKeys: number;
  /** Values in all: objects, arrays, strings, numbers, booleans and nulls, the body itself included (keys are not values). */
  maxValues: number;
  /** Objects and arrays open inside one another (every later walk of the value may recurse this deep). */
  maxDepth: number;
}

export const DEFAULT_JSON_LIMITS: Readonly<JsonLimits> = Object.freeze({ maxKeys: 1000, maxValues: 10_000, maxDepth: 32 });

/** The first limit a text crosses, and where (the offset of the character that crossed it). */
export interface JsonLimitCrossing {
  limit: keyof JsonLimits;
  max: number;
  at: number;
}

/** The characters the scan looks at, by their codes. */
const [TAB, LF, CR, SPACE, QUOTE, COMMA, COLON, OPEN_ARRAY, BACKSLASH, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = Array.from('\t\n\r ",:[\\]{}', (c) =>
  c.charCodeAt(0),
);

/**
 * One pass over the raw text, before JSON.parse, counting what lies outside strings: no recursion
 * (200,000 `[` cost a loop, not a stack), nothing allocated per value, and it stops at the first
 * limit crossed. It does not check the syntax: text that is not JSON passes or fails here, and
 * JSON.parse refuses it afterwards. For JSON, the counts are exact.
 */
export function jsonLimitCrossing(text: string, limits: JsonLimits): JsonLimitCrossing | undefined {
  const { maxKeys, maxValues, maxDepth } = limits;
  // Per open object or array: whether it is an object, and its keys so far.
  const isObject: boolean[] = [];
  const keys: number[] = [];
  let depth = 0;
  let values = 0;
  // The next string is a key: just after `{`, or after `,` in an object.
  let expectKey = false;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === SPACE || c === LF || c === CR || c === TAB || c === COLON) continue;
    if (c === QUOTE) {
      i = closingQuote(text, i);
      if (expectKey) {
        expectKey = false;
        if (++keys[depth - 1] > maxKeys) return { limit: 'maxKeys', max: maxKeys, at: i };
      } else if (++values > maxValues) return { limit: 'maxValues', max: maxValues, at: i };
    } else if (c === COMMA) {
      expectKey = depth > 0 && isObject[depth - 1];
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++values > maxValues) return { limit: 'maxValues', max: maxValues, at: i };
      if (depth === maxDepth) return { limit: 'maxDepth', max: maxDepth, at: i };
      isObject[depth] = c === OPEN_OBJECT;
      keys[depth] = 0;
      depth++;
      expectKey = c === OPEN_OBJECT;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth === 0) return undefined; // closes more than it opened: not JSON, JSON.parse says so
      depth--;
      expectKey = false;
    } else {
      // A number, true, false or null (or something JSON.parse will refuse): one value per run of characters.
      if (++values > maxValues) return { limit: 'maxValues', max: maxValues, at: i };
      expectKey = false;
      while (i + 1 < length && !isDelimiter(text.charCodeAt(i + 1))) i++;
    }
  }
  return undefined;
}

/** The offset of the quote that closes the string opening at `open` (the text's length when none does). */
function closingQuote(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    // Escaped when an odd number of backslashes precede it (scanned back no further than `from`: linear overall).
    let before = quote - 1;
    while (before >= from && text.charCodeAt(before) === BACKSLASH) before--;
    if ((quote - 1 - before) % 2 === 0) return quote;
    from = quote + 1;
  }
}

function isDelimiter(c: number): boolean {
  return (
    c === SPACE ||
    c === LF ||
    c === CR ||
    c === TAB ||
    c === COMMA ||
    c === COLON ||
    c === QUOTE ||
    c === OPEN_ARRAY ||
    c === CLOSE_ARRAY ||
    c === OPEN_OBJECT ||
    c === CLOSE_OBJECT
  );
}

/** "an object has more than 1,000 keys" — the words of an error naming the limit crossed. */
export function describeCrossing(crossing: JsonLimitCrossing): string {
  const max = crossing.max.toLocaleString('en-US');
  switch (crossing.limit) {
    case 'maxKeys':
      return `an object has more than ${max} keys`;
    case 'maxValues':
      return `it holds more than ${max} values`;
    case 'maxDepth':
      return `it nests objects and arrays deeper than ${max} levels`;
  }
}
