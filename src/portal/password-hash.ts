import { Injectable } from '@nestjs/common';
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { AppConfig } from '../config/app-config.js';

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/** scrypt's r and p (its N is 2^PASSWORD_HASH_COST: see AppConfig). */
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

/** scrypt needs 128·N·r bytes: room for that, and never less than Node's usual 64 MiB. */
const maxmemFor = (n: number) => Math.max(64 * 1024 * 1024, 2 * 128 * n * R);

/** `scrypt$N$r$p$salt$hash` (base64url), so the parameters can be raised later without breaking stored hashes. */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const n = 2 ** cost;
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LENGTH, { N: n, r: R, p: P, maxmem: maxmemFor(n) });
  return ['scrypt', n, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: maxmemFor(Number(n)),
  });
  return timingSafeEqual(actual, expected);
}

/** The functions above as a provider, at PASSWORD_HASH_COST: the sign-in's one way to hash and verify (tests count the verifications through it). */
@Injectable()
export class PasswordHasher {
  /**
   * A hash of nothing at this cost: verifying a password against it takes as long as against a member's, so an
   * unknown address answers in the time a known one does.
   */
  readonly unknownHash: string;

  constructor(private readonly config: AppConfig) {
    const n = 2 ** config.PASSWORD_HASH_COST;
    this.unknownHash = `scrypt$${n}$${R}$${P}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
  }

  hash(password: string): Promise<string> {
    return hashPassword(password, this.config.PASSWORD_HASH_COST);
  }

  verify(password: string, stored: string): Promise<boolean> {
    return verifyPassword(password, stored);
  }

  /** Whether a stored hash was made at other parameters than today's (PASSWORD_HASH_COST changed since it was set). */
  isOutdated(stored: string): boolean {
    const [, n, r, p] = stored.split('$');
    return Number(n) !== 2 ** this.config.PASSWORD_HASH_COST || Number(r) !== R || Number(p) !== P;
  }
}
