import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../common/ids.js';

/** Credential formats: a recognisable prefix, then 40 crypto-random base62 chars (~238 bits). */
export const API_KEY_PREFIX = 'sk_';
export const ACCESS_TOKEN_PREFIX = 'at_';
export const CLIENT_ID_PREFIX = 'cid_';
export const CLIENT_SECRET_PREFIX = 'cs_';

export function newSecret(prefix: string): string {
  return prefix + randomBase62(40);
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
