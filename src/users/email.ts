import { isEmail } from 'class-validator';

/** The longest address stored (RFC 5321's path limit). */
export const MAX_EMAIL_LENGTH = 320;

/** How e-mails are stored and compared: trimmed, lowercased. */
export function normaliseEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** Why this (normalised) e-mail is not acceptable, or null. The one rule for the API and the sign-up form. */
export function emailProblem(email: string): string | null {
  if (email.length > MAX_EMAIL_LENGTH) return `email must be at most ${MAX_EMAIL_LENGTH} characters long`;
  if (!isEmail(email)) return 'email must be an e-mail address';
  return null;
}
