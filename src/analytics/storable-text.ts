/** Control characters (C0 — NUL included —, DEL, C1) and lone surrogates: PostgreSQL cannot store a NUL, and neither is text. */
const UNSTORABLE = /[\p{Cc}\p{Cs}]/gu;
const ANY_UNSTORABLE = /[\p{Cc}\p{Cs}]/u;

/**
 * A value from a visitor's request (a path, a campaign tag, a label) as analytics stores it:
 * without control characters or lone surrogates, and at most `maxLength` characters — counted in
 * code points, as PostgreSQL counts them, so a surrogate pair is never cut in two.
 */
export function storableText(value: string, maxLength: number): string {
  if (value.length <= maxLength && !ANY_UNSTORABLE.test(value)) return value; // the usual value, as it is (a test is cheaper than a replace)
  const text = value.replace(UNSTORABLE, '');
  if (text.length <= maxLength) return text;
  let end = 0;
  for (let kept = 0; kept < maxLength && end < text.length; kept++) end += text.codePointAt(end)! > 0xffff ? 2 : 1;
  return text.slice(0, end);
}

/** Whether `value` would be stored as it is (no character to drop). */
export function isStorableText(value: string): boolean {
  return !ANY_UNSTORABLE.test(value);
}
