import { createHmac, hash } from 'node:crypto';

/** SHA-256's block: HMAC pads (or hashes) its key to this many bytes. */
const BLOCK_BYTES = 64;
const DIGEST_BYTES = 32;
/** Messages up to this many UTF-8 bytes are hashed in a buffer made once; a longer one (a very long User-Agent) through createHmac, alike. */
const MESSAGE_BYTES = 2048;

/**
 * One UTC day's salt, and the two hashes made under it on every counted request:
 *
 * - `visitorId`: HMAC-SHA256(salt, scope ‖ IP ‖ User-Agent), its first 64 bits as a signed decimal (a
 *   PostgreSQL bigint). Computed as HMAC's two SHA-256 digests (RFC 2104) with `crypto.hash` over
 *   buffers made once: `createHmac` makes a native object per call, whose making and collecting cost
 *   a beacon about 15 µs of CPU in the bench, where the two digests cost one or two. day-salt.spec.ts
 *   holds it equal to createHmac.
 * - `limitKey`: SHA-256(salt ‖ scope ‖ network) as a 52-bit number, the key a visitor's network is
 *   rate-limited under: no address in the limiter's memory, nothing that links it to another day, and
 *   no string per key. Not an id that is stored: a plain salted hash suffices.
 *
 * Not reentrant (one shared buffer): called synchronously, as JavaScript runs.
 */
export class DaySalt {
  private readonly inner = Buffer.alloc(BLOCK_BYTES + MESSAGE_BYTES);
  private readonly outer = Buffer.alloc(BLOCK_BYTES + DIGEST_BYTES);
  private readonly head = Buffer.alloc(8);
  /** The salt as latin1 text, the form the limit key has always hashed it in. */
  private readonly text: string;

  constructor(private readonly salt: Buffer) {
    this.text = salt.toString('latin1');
    // A key longer than a block is hashed first; a shorter one (the 32 random bytes) is zero-padded.
    const key = salt.length > BLOCK_BYTES ? hash('sha256', salt, 'buffer') : salt;
    for (let i = 0; i < BLOCK_BYTES; i++) {
      const byte = i < key.length ? key[i] : 0;
      this.inner[i] = byte ^ 0x36;
      this.outer[i] = byte ^ 0x5c;
    }
  }

  /** The visitor id of `scope`, `ip` and `userAgent` (NUL-separated: no two different triples hash the same input). */
  visitorId(scope: string, ip: string, userAgent: string): string {
    const message = `${scope}\u0000${ip}\u0000${userAgent}`;
    // UTF-8 takes at most 3 bytes per UTF-16 unit: below this bound the message fits the buffer.
    if (message.length * 3 > MESSAGE_BYTES) return signed64(createHmac('sha256', this.salt).update(message).digest('binary'), this.head);
    const length = this.inner.write(message, BLOCK_BYTES, 'utf8');
    // Digests as 'binary' (latin1) text, a byte a character: no ArrayBuffer per digest.
    this.outer.write(hash('sha256', this.inner.subarray(0, BLOCK_BYTES + length), 'binary'), BLOCK_BYTES, 'latin1');
    return signed64(hash('sha256', this.outer, 'binary'), this.head);
  }

  /** The key `network` is rate-limited under within `scope` (a number from 1 to 2^52 − 1). */
  limitKey(scope: string, network: string): number {
    const digest = hash('sha256', `${this.text}\u0000${scope}\u0000${network}`, 'binary');
    const high = ((digest.charCodeAt(0) & 0x0f) << 16) | (digest.charCodeAt(1) << 8) | digest.charCodeAt(2);
    const low = ((digest.charCodeAt(3) << 24) | (digest.charCodeAt(4) << 16) | (digest.charCodeAt(5) << 8) | digest.charCodeAt(6)) >>> 0;
    return high * 0x1_0000_0000 + low || 1; // 0 is no key (an empty slot of the limiter)
  }
}

/** The first 8 bytes of a digest (latin1 text) as a signed 64-bit decimal. */
function signed64(digest: string, head: Buffer): string {
  head.write(digest, 0, 8, 'latin1');
  return head.readBigInt64BE(0).toString();
}
