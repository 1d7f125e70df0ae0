import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { FileCache, fileSlot } from './file-cache.js';

describe('FileCache', () => {
  const text = Buffer.from('const answer = 42;\n'.repeat(200));

  it('reads once for concurrent misses, compresses once (brotli in the background), and keeps copies only when smaller', async () => {
    let reads = 0;
    const cache = new FileCache(1024 * 1024, async () => {
      reads++;
      return text;
    });
    const js = fileSlot('acc/1', true);
    const [a, b] = await Promise.all([cache.get(js), cache.get(js)]);
    expect(reads).toBe(1);
    expect(a).toBe(b);
    expect(gunzipSync(a!.gzip!)).toEqual(text);
    // Brotli lands in the background, into the same entry.
    await cache.settled();
    expect(brotliDecompressSync(a!.br!)).toEqual(text);
    expect(cache.size.bytes).toBe(text.length + a!.gzip!.length + a!.br!.length);
    expect(cache.peek(js)).toBe(a);
    expect(reads).toBe(1);
    // The same bytes served as a type not compressed are another entry.
    expect(await cache.get(fileSlot('acc/1', false))).toMatchObject({ gzip: null, br: null });
    const tiny = new FileCache(1024 * 1024, async () => Buffer.from('x'));
    expect(await tiny.get(fileSlot('acc/2', true))).toMatchObject({ gzip: null, br: null });
  });

  it('stays within its byte limit, evicting what was not read since (a second chance for what was), and keeps no file over an eighth of it', async () => {
    const blobs: Record<string, Buffer> = { 'a/big': Buffer.alloc(2000) };
    for (let i = 1; i <= 9; i++) blobs[`b/${i}`] = Buffer.alloc(100, i);
    const cache = new FileCache(800, async (key) => blobs[key]);
    const slot = (key: string) => fileSlot(key, false);
    // Room for eight files of an eighth.
    for (let i = 1; i <= 8; i++) await cache.get(slot(`b/${i}`));
    expect(cache.size).toEqual({ files: 8, bytes: 800 });
    // The ninth: every entry is fresh (used), so each gets its second chance and the oldest goes.
    await cache.get(slot('b/9'));
    expect(cache.size).toEqual({ files: 8, bytes: 800 });
    expect(cache.peek(slot('b/1'))).toBeUndefined();
    // Now b/3 is read again and b/2 not: a miss pushes out b/2, not b/3.
    cache.peek(slot('b/3'));
    await cache.get(slot('b/1'));
    expect(cache.peek(slot('b/2'))).toBeUndefined();
    expect(cache.peek(slot('b/3'))).toBeDefined();
    expect(cache.size.bytes).toBeLessThanOrEqual(800);
    expect(await cache.get(slot('a/big'))).toMatchObject({ identity: blobs['a/big'] });
    expect(cache.peek(slot('a/big'))).toBeUndefined();
    expect(await cache.get(slot('a/none'))).toBeUndefined();
  });
});
