import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { FileCache } from './file-cache.js';

describe('FileCache', () => {
  const text = Buffer.from('const answer = 42;\n'.repeat(200));

  it('reads once for concurrent misses, compresses once, and keeps copies only when smaller', async () => {
    let reads = 0;
    const cache = new FileCache(1024 * 1024, async () => {
      reads++;
      return text;
    });
    const [a, b] = await Promise.all([cache.get('acc/1', true), cache.get('acc/1', true)]);
    expect(reads).toBe(1);
    expect(a).toBe(b);
    expect(gunzipSync(a!.gzip!)).toEqual(text);
    // Brotli lands in the background, into the same entry.
    await cache.settled();
    expect(brotliDecompressSync(a!.br!)).toEqual(text);
    expect(cache.size.bytes).toBe(text.length + a!.gzip!.length + a!.br!.length);
    expect(cache.peek('acc/1', true)).toBe(a);
    expect(reads).toBe(1);
    const raw = await cache.get('acc/1', false);
    expect(raw).toMatchObject({ gzip: null, br: null });
    const tiny = new FileCache(1024 * 1024, async () => Buffer.from('x'));
    expect(await tiny.get('acc/2', true)).toMatchObject({ gzip: null, br: null });
  });

  it('stays within its byte limit, least recently used out first, and keeps no file over an eighth of it', async () => {
    const blobs: Record<string, Buffer> = {
      'a/1': Buffer.alloc(400, 1),
      'a/2': Buffer.alloc(400, 2),
      'a/3': Buffer.alloc(400, 3),
      'a/big': Buffer.alloc(2000),
    };
    const cache = new FileCache(8000, async (key) => blobs[key]);
    for (let i = 0; i < 30; i++) await cache.get(`a/${(i % 3) + 1}`, false);
    expect(cache.size).toEqual({ files: 3, bytes: 1200 });
    // Room for eight files of an eighth: the ninth pushes out the least recently used.
    for (let i = 1; i <= 8; i++) blobs[`b/${i}`] = Buffer.alloc(100, i);
    blobs['b/9'] = Buffer.alloc(100, 9);
    const small = new FileCache(800, async (key) => blobs[key]);
    for (let i = 1; i <= 8; i++) await small.get(`b/${i}`, false);
    small.peek('b/1', false); // b/1 is now the most recent, b/2 the least
    await small.get('b/9', false);
    expect(small.size).toEqual({ files: 8, bytes: 800 });
    expect(small.peek('b/1', false)).toBeDefined();
    expect(small.peek('b/2', false)).toBeUndefined();
    expect(await small.get('a/big', false)).toMatchObject({ identity: blobs['a/big'] });
    expect(small.peek('a/big', false)).toBeUndefined();
    expect(await small.get('a/none', false)).toBeUndefined();
  });
});
