// Masks personal data in a prompt before it leaves for a remote provider (AI_REDACT_PII=true).
// Deliberately greedy on phone numbers: masking a number that was not a phone costs a little
// meaning; sending a phone number that was costs privacy.

export const EMAIL_MASK = '[email]';
export const PHONE_MASK = '[phone]';

// The lookbehind lets a match start only where a run of local-part characters starts: without it a
// long run with no `@` (a base64 blob) is rescanned from every position, quadratic in its length.
const EMAIL =
  /(?<![\p{L}\p{N}.!#$%&'*+/=?^_`{|}~-])[\p{L}\p{N}.!#$%&'*+/=?^_`{|}~-]+@[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?)*\.\p{L}{2,}/gu;

// A run of digits, optionally led by + or a parenthesised area code, with at most two separators
// (space, dot, dash, slash, parentheses) between digits. Validated further in `looksLikePhone`.
const PHONE_CANDIDATE = /(?<![\p{L}\p{N}_+])(?:\+|\(\+?)?\d(?:[ .\-/()]{0,2}\d){6,18}\)?(?![\p{L}\p{N}_])/gu;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const DECIMAL = /^\d+\.\d+$/;
const DATE = /^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{4})$/;

function looksLikePhone(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, '').length;
  if (digits > 15) return false; // E.164 maximum; longer runs are card numbers, ids...
  if (IPV4.test(candidate) || DECIMAL.test(candidate) || DATE.test(candidate)) return false;
  const international = candidate.startsWith('+') || candidate.startsWith('(+');
  if (international) return digits >= 8;
  const separated = /[ .\-/()]/.test(candidate);
  // "555-123-4567", "06 12 34 56 78", "(030) 1234567"; bare runs only at national length.
  return separated ? digits >= 9 : digits >= 10 && digits <= 11;
}

const count = (text: string, char: string) => text.split(char).length - 1;

export function redactPii(text: string): { text: string; redactions: number } {
  let redactions = 0;
  const withoutEmails = text.replace(EMAIL, () => {
    redactions++;
    return EMAIL_MASK;
  });
  const masked = withoutEmails.replace(PHONE_CANDIDATE, (candidate) => {
    // A trailing separator belongs to the sentence, not to the number.
    let trimmed = candidate.replace(/[ .\-/(]+$/, '');
    if (trimmed.endsWith(')') && count(trimmed, '(') < count(trimmed, ')')) trimmed = trimmed.slice(0, -1);
    if (!looksLikePhone(trimmed)) return candidate;
    redactions++;
    return PHONE_MASK + candidate.slice(trimmed.length);
  });
  return { text: masked, redactions };
}
