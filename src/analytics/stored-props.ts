/** What an e-mail-looking value is stored as. */
export const REDACTED = '(redacted)';

/** Something shaped like an address anywhere in the text (`a@b.c`): props are not the place for one, and we never store it. */
const EMAIL = /[^\s@<>()[\]",;:]+@[^\s@<>()[\]",;:]+\.[^\s@<>()[\]",;:]{2,}/;

/**
 * A custom event's props as stored: JSON of the same pairs, any value that looks like an e-mail
 * address replaced by `(redacted)`; null when there are none. The pairs were checked by CollectService
 * (at most 10, bounded lengths, storable text).
 */
export function storedProps(props: Record<string, string> | undefined | null): string | null {
  if (!props) return null;
  // Pairs, then fromEntries: a key such as `__proto__` stays a plain key. An empty key has no `props.<key>` to break down by.
  const pairs: Array<[string, string]> = [];
  for (const key in props) if (key !== '') pairs.push([key, EMAIL.test(props[key]) ? REDACTED : props[key]]);
  return pairs.length === 0 ? null : JSON.stringify(Object.fromEntries(pairs));
}

/** The pairs of stored props (`storedProps`' answer). */
export function propsOf(stored: string | null): Array<[string, string]> {
  return stored === null ? [] : Object.entries(JSON.parse(stored) as Record<string, string>);
}
