import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures, two schemes on every delivery:
 * - Stripe's: `x-service-signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]` where each `v1` is the
 *   lowercase hex HMAC-SHA256 of `${t}.${rawBody}` keyed with one active secret (the whole `whsec_…` string).
 * - Standard Webhooks' (standardwebhooks.com, Svix's): `webhook-id`, `webhook-timestamp` and
 *   `webhook-signature: v1,<base64>[ v1,<base64>]`, the HMAC-SHA256 of `${id}.${timestamp}.${rawBody}`
 *   keyed with the bytes the secret's part after `whsec_` encodes in base64.
 * Dependency-free (node:crypto only): `libs/webhook-signature` re-exports this file for the SDKs.
 */

export const SIGNATURE_HEADER = 'x-service-signature';
export const DEFAULT_TOLERANCE_SEC = 300;

/** Lowercase hex HMAC-SHA256(secret, `${timestamp}.${rawBody}`). */
export function sign(secret: string, timestamp: number, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** `t=<unix>,v1=<hex>` with one `v1=` per secret (two while a rotated secret is still honoured). */
export function signatureHeader(secrets: string[], timestamp: number, rawBody: string | Buffer): string {
  if (secrets.length === 0) throw new Error('signatureHeader needs at least one secret');
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${sign(s, timestamp, rawBody)}`)].join(',');
}

export interface ParsedSignatureHeader {
  timestamp: number;
  signatures: string[];
}

/** Parses `t=…,v1=…[,v1=…]`; unknown schemes (v0=…) are ignored. Null when malformed. */
export function parseSignatureHeader(header: string): ParsedSignatureHeader | null {
  let timestamp = NaN;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  return Number.isFinite(timestamp) && signatures.length > 0 ? { timestamp, signatures } : null;
}

export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

/**
 * Verifies a delivery: one `v1=` must match HMAC(secret, `${t}.${rawBody}`) (constant-time compare)
 * and `t` must be within `toleranceSec` of now. Pass the body exactly as received (bytes or string),
 * never a re-serialized object. Returns the timestamp; throws WebhookSignatureError otherwise.
 */
export function verify(
  rawBody: string | Buffer,
  header: string | undefined | null,
  secret: string,
  toleranceSec = DEFAULT_TOLERANCE_SEC,
  nowSec = Math.floor(Date.now() / 1000),
): number {
  if (!header) throw new WebhookSignatureError('Missing signature header');
  const parsed = parseSignatureHeader(header);
  if (!parsed) throw new WebhookSignatureError('Malformed signature header');
  const expected = Buffer.from(sign(secret, parsed.timestamp, rawBody), 'hex');
  const match = parsed.signatures.some((s) => {
    const given = Buffer.from(s, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!match) throw new WebhookSignatureError('No signature matches the secret');
  if (toleranceSec > 0 && Math.abs(nowSec - parsed.timestamp) > toleranceSec) {
    throw new WebhookSignatureError('Timestamp outside the tolerance');
  }
  return parsed.timestamp;
}

/** Like `verify`, as a boolean. */
export function isValid(rawBody: string | Buffer, header: string | undefined | null, secret: string, toleranceSec = DEFAULT_TOLERANCE_SEC): boolean {
  try {
    verify(rawBody, header, secret, toleranceSec);
    return true;
  } catch {
    return false;
  }
}

/** The Standard Webhooks headers. */
export const STANDARD_ID_HEADER = 'webhook-id';
export const STANDARD_TIMESTAMP_HEADER = 'webhook-timestamp';
export const STANDARD_SIGNATURE_HEADER = 'webhook-signature';

/**
 * The Standard Webhooks key of a secret: its part after `whsec_`, base64-decoded, as that standard's
 * libraries read it. Secrets are standard base64 (`whsec_` + 44 characters); Node also decodes the
 * URL-safe alphabet that secrets made before the Standard Webhooks headers used, to the same bytes.
 */
export function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

/** Base64 HMAC-SHA256(standardKey(secret), `${msgId}.${timestamp}.${rawBody}`). */
export function signStandard(secret: string, msgId: string, timestamp: number, rawBody: string | Buffer): string {
  return createHmac('sha256', standardKey(secret)).update(`${msgId}.${timestamp}.`).update(rawBody).digest('base64');
}

/** `v1,<base64>` per secret, separated by spaces (two while a rotated secret is still honoured). */
export function standardSignatureHeader(secrets: string[], msgId: string, timestamp: number, rawBody: string | Buffer): string {
  if (secrets.length === 0) throw new Error('standardSignatureHeader needs at least one secret');
  return secrets.map((s) => `v1,${signStandard(s, msgId, timestamp, rawBody)}`).join(' ');
}

/**
 * Verifies the Standard Webhooks headers of a delivery (lower-case names, as Node gives them):
 * one `v1,` signature must match and the timestamp be within `toleranceSec` of now. Returns the
 * timestamp; throws WebhookSignatureError otherwise.
 */
export function verifyStandard(
  rawBody: string | Buffer,
  headers: Record<string, string | string[] | undefined>,
  secret: string,
  toleranceSec = DEFAULT_TOLERANCE_SEC,
  nowSec = Math.floor(Date.now() / 1000),
): number {
  const [msgId, timestamp, signatures] = [STANDARD_ID_HEADER, STANDARD_TIMESTAMP_HEADER, STANDARD_SIGNATURE_HEADER].map((h) => headers[h]);
  if (typeof msgId !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') {
    throw new WebhookSignatureError('Missing Standard Webhooks headers');
  }
  if (!/^\d+$/.test(timestamp)) throw new WebhookSignatureError('Malformed webhook-timestamp');
  const t = Number(timestamp);
  const expected = Buffer.from(signStandard(secret, msgId, t, rawBody), 'base64');
  const match = signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',');
    const given = Buffer.from(value ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!match) throw new WebhookSignatureError('No signature matches the secret');
  if (toleranceSec > 0 && Math.abs(nowSec - t) > toleranceSec) throw new WebhookSignatureError('Timestamp outside the tolerance');
  return t;
}
