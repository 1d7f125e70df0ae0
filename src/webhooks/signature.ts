import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures, the scheme Stripe uses: `x-service-signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]`
 * where each `v1` is the lowercase hex HMAC-SHA256 of `${t}.${rawBody}` under one active secret.
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
