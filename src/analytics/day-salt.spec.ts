import { createHmac, hash, randomBytes } from 'node:crypto';
import { DaySalt } from './day-salt.js';

describe('DaySalt', () => {
  /** The visitor id as createHmac makes it: the digest's first 64 bits, signed. */
  const expectedId = (salt: Buffer, message: string) => BigInt.asIntN(64, createHmac('sha256', salt).update(message).digest().readBigUInt64BE(0)).toString();

  it('makes the visitor id HMAC-SHA256 makes, for every length of message and key', () => {
    const salts = [randomBytes(32), randomBytes(64), randomBytes(100), Buffer.alloc(0)];
    const agents = [
      '',
      'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
      'Ünïcödé 🦊 agent',
      'x'.repeat(682), // the longest that is hashed in the buffer whatever its characters
      'x'.repeat(683), // through createHmac
      '🦊'.repeat(2000),
    ];
    for (const salt of salts) {
      const day = new DaySalt(salt);
      for (const agent of agents) {
        expect(day.visitorId('app_1', '203.0.113.7', agent)).toBe(expectedId(salt, `app_1\u0000203.0.113.7\u0000${agent}`));
      }
    }
  });

  it('hashes each call afresh: a long message leaves nothing behind for a short one', () => {
    const salt = randomBytes(32);
    const day = new DaySalt(salt);
    day.visitorId('app_1', '198.51.100.1', 'y'.repeat(600));
    expect(day.visitorId('app_1', '198.51.100.1', 'UA')).toBe(expectedId(salt, 'app_1\u0000198.51.100.1\u0000UA'));
    expect(day.visitorId('app_2', '198.51.100.1', 'UA')).not.toBe(day.visitorId('app_1', '198.51.100.1', 'UA'));
  });

  it('limits under 52 bits of the salted SHA-256 of scope and network, never 0', () => {
    const salt = Buffer.alloc(32, 7);
    const day = new DaySalt(salt);
    const digest = hash('sha256', `${salt.toString('latin1')}\u0000app_1\u0000203.0.113.7`, 'buffer');
    const bits = (digest.readUInt32BE(0) >>> 0).toString(2).padStart(32, '0') + (digest.readUInt32BE(4) >>> 0).toString(2).padStart(32, '0');
    // The digest's bits 4 to 55 (the first byte's low nibble and the next six bytes).
    expect(day.limitKey('app_1', '203.0.113.7')).toBe(parseInt(bits.slice(4, 56), 2));
    expect(day.limitKey('app_1', '203.0.113.7')).toBeLessThan(2 ** 52);
    expect(day.limitKey('app_2', '203.0.113.7')).not.toBe(day.limitKey('app_1', '203.0.113.7'));
    expect(new DaySalt(Buffer.alloc(32, 8)).limitKey('app_1', '203.0.113.7')).not.toBe(day.limitKey('app_1', '203.0.113.7'));
  });
});
