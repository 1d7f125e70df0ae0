import { randomBytes, randomFillSync } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A prefixed, time-sortable id (`app_01JC…`): 10 chars of millisecond time and 16 random
 * chars in Crockford base32, like a ULID. Readable in logs; sorts by creation time.
 */
export function newId(prefix: string, now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  if (poolOffset + 16 > RANDOM_POOL.length) {
    randomFillSync(RANDOM_POOL);
    poolOffset = 0;
  }
  let rand = '';
  for (let i = poolOffset; i < poolOffset + 16; i++) rand += CROCKFORD[RANDOM_POOL[i] % 32];
  poolOffset += 16;
  return `${prefix}_${time}${rand}`;
}

// Random bytes for ids are drawn 4 KiB at a time (each byte used once): one call to the CSPRNG per 256 ids, not per id.
const RANDOM_POOL = Buffer.alloc(4096);
let poolOffset = RANDOM_POOL.length;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniformly random base62 string (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}
