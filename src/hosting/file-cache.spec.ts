import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import { CompressionPool } from './compression-pool.js';
import { type BlobSource, type CachedFile, DISK_TIER_MIN_BYTES, FileCache, fileSlot } from './file-cache.js';
import { type DiskFile, DiskTier } from './file-disk-tier.js';

/** A copy the test knows is in memory. */
const inMemory = (copy: CachedFile['identity'] | null | undefined): Buffer => copy as Buffer;

let pool: CompressionPool;
beforeAll(() => (pool = new CompressionPool(1, 16)));
afterAll(() => pool.close());

/** A store answering from `load` (as a stream, as the real ones do). */
const source = (load: (key: string) => Promise<Buffer | undefined>): BlobSource => ({
  async open(key) {
    const bytes = await load(key);
    return bytes && { size: bytes.length, stream: Readable.from([bytes]) };
  },
});
const cacheOf = (limit: number, load: (key: string) => Promise<Buffer | undefined>, disk: DiskTier | null = null, maxBytes = 8 * 1024 * 1024): FileCache =>
  new FileCache(limit, source(load), disk, { maxBytes, pool });

describe('FileCache', () => {
  const text = Buffer.from('const answer = 42;\n'.repeat(200));

  it('reads once for concurrent misses, compresses once (brotli in the background), and keeps copies only when smaller', async () => {
    let reads = 0;
    const cache = cacheOf(1024 * 1024, async () => {
      reads++;
      return text;
    });
    const js = fileSlot('acc/1', true);
    const [a, b] = await Promise.all([cache.get(js), cache.get(js)]);
    expect(reads).toBe(1);
    expect(a).toBe(b);
    expect(gunzipSync(inMemory(a!.gzip))).toEqual(text);
    // Brotli lands in the background, into the same entry.
    await cache.settled();
    expect(brotliDecompressSync(inMemory(a!.br))).toEqual(text);
    expect(cache.size.bytes).toBe(text.length + inMemory(a!.gzip).length + inMemory(a!.br).length);
    expect(cache.peek(js)).toBe(a);
    expect(reads).toBe(1);
    // The same bytes served as a type not compressed are another entry.
    expect(await cache.get(fileSlot('acc/1', false))).toMatchObject({ gzip: null, br: null });
    const tiny = cacheOf(1024 * 1024, async () => Buffer.from('x'));
    expect(await tiny.get(fileSlot('acc/2', true))).toMatchObject({ gzip: null, br: null });
  });

  it('stays within its byte limit, evicting what was not read since (a second chance for what was), and keeps no file over an eighth of it', async () => {
    const blobs: Record<string, Buffer> = { 'a/big': Buffer.alloc(2000) };
    for (let i = 1; i <= 9; i++) blobs[`b/${i}`] = Buffer.alloc(100, i);
    const cache = cacheOf(800, async (key) => blobs[key]);
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

describe('FileCache with a disk tier', () => {
  const big = (fill: string) => Buffer.from(fill.repeat(Math.ceil(DISK_TIER_MIN_BYTES / fill.length)));
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'file-cache-spec-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const streamed = async (file: DiskFile, start?: number, end?: number): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    for await (const chunk of file.entry.read(file, start, end)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const onDisk = (copy: CachedFile['identity'] | null | undefined): DiskFile => {
    expect(Buffer.isBuffer(copy)).toBe(false);
    return copy as DiskFile;
  };

  it('keeps files from DISK_TIER_MIN_BYTES on disk with their compressed copies (one read for concurrent misses), smaller ones in memory', async () => {
    const script = big('export const answer = 42;\n');
    let reads = 0;
    const disk = new DiskTier(64 * 1024 * 1024, root);
    const cache = cacheOf(
      8 * 1024 * 1024,
      async (key) => {
        reads++;
        return key === 'a/small' ? Buffer.from('x'.repeat(1000)) : script;
      },
      disk,
    );
    const slot = fileSlot('a/script', true);
    const [a, b] = await Promise.all([cache.get(slot), cache.get(slot)]);
    expect(reads).toBe(1);
    expect(a).toBe(b);
    // Its copies are the workers': the first answers are as stored.
    expect(a!.gzip).toBeNull();
    expect(cache.peek(slot)).toBeUndefined(); // not in memory: the lean path leaves it to the route
    expect(cache.size.bytes).toBe(0);
    const identity = onDisk(a!.identity);
    expect(identity.length).toBe(script.length);
    expect(await streamed(identity)).toEqual(script);
    expect(await streamed(identity, 10, 19)).toEqual(script.subarray(10, 20));
    await cache.settled();
    expect(gunzipSync(await streamed(onDisk(a!.gzip)))).toEqual(script);
    expect(brotliDecompressSync(await streamed(onDisk(a!.br)))).toEqual(script);
    expect(disk.size).toEqual({ files: 1, bytes: script.length + a!.gzip!.length + a!.br!.length });
    // Kept: the next read is not a miss; the bytes are files of the tier's folder.
    expect(await cache.get(slot)).toBe(a);
    expect(reads).toBe(1);
    const [folder] = await readdir(root);
    expect(folder).toMatch(new RegExp(`^platform-site-files-${process.pid}-`));
    expect((await readdir(join(root, folder))).sort()).toEqual(['1.identity', '2.gzip', '3.br']);
    expect(await readFile(identity.path)).toEqual(script);
    // A small file stays in memory.
    expect(Buffer.isBuffer((await cache.get(fileSlot('a/small', true)))!.identity)).toBe(true);
  });

  it('stays within its byte limit, and removes an evicted file only once no stream reads it', async () => {
    const blobs: Record<string, Buffer> = {};
    for (let i = 1; i <= 9; i++) blobs[`b/${i}`] = Buffer.alloc(DISK_TIER_MIN_BYTES, i);
    // Room for eight (a file over an eighth of the limit is not kept).
    const disk = new DiskTier(8 * DISK_TIER_MIN_BYTES, root);
    const cache = cacheOf(1024 * 1024, async (key) => blobs[key], disk);
    const slot = (key: string) => fileSlot(key, false);
    const first = onDisk((await cache.get(slot('b/1')))!.identity);
    for (let i = 2; i <= 8; i++) await cache.get(slot(`b/${i}`));
    // A stream of b/1 begun before it is evicted reads it whole.
    const reading = first.entry.read(first);
    await cache.get(slot('b/9'));
    expect(disk.size).toEqual({ files: 8, bytes: 8 * DISK_TIER_MIN_BYTES });
    expect(disk.get('b/1')).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(existsSync(first.path)).toBe(true);
    const chunks: Buffer[] = [];
    for await (const chunk of reading) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(blobs['b/1']);
    await first.entry.removed;
    expect(existsSync(first.path)).toBe(false);
    // Kept again: a new file of its own, never the removed one's name.
    const again = onDisk((await cache.get(slot('b/1')))!.identity);
    expect(again.path).not.toBe(first.path);
    expect(await streamed(again)).toEqual(blobs['b/1']);
    // Over an eighth of the tier's limit: not kept at all.
    const huge = cacheOf(1024 * 1024, async () => Buffer.alloc(2 * DISK_TIER_MIN_BYTES), new DiskTier(15 * DISK_TIER_MIN_BYTES, root));
    expect(Buffer.isBuffer((await huge.get(slot('c/1')))!.identity)).toBe(true);
  });

  it('reads a file again when its copy on disk was removed under it (a cleaner of the temporary folder)', async () => {
    const bytes = Buffer.alloc(DISK_TIER_MIN_BYTES, 3);
    let reads = 0;
    const disk = new DiskTier(64 * DISK_TIER_MIN_BYTES, root);
    const cache = cacheOf(1024, async () => (reads++, bytes), disk);
    const first = onDisk((await cache.get(fileSlot('a/1', false)))!.identity);
    await rm(first.path);
    const again = onDisk((await cache.get(fileSlot('a/1', false)))!.identity);
    expect(reads).toBe(2);
    expect(again.path).not.toBe(first.path);
    expect(await streamed(again)).toEqual(bytes);
    expect(disk.size).toEqual({ files: 1, bytes: bytes.length });
  });

  it('removes the folders of processes no longer running when it starts, and keeps those of running ones', async () => {
    const stale = join(root, 'platform-site-files-999999999-abc');
    const ownOld = join(root, `platform-site-files-${process.pid}-old`); // this process's id, not this process's folder (a restarted container)
    const running = join(root, `platform-site-files-${process.ppid}-abc`);
    for (const folder of [stale, ownOld, running]) await mkdir(folder);
    const cache = cacheOf(1024, async () => Buffer.alloc(DISK_TIER_MIN_BYTES), new DiskTier(64 * DISK_TIER_MIN_BYTES, root));
    await cache.get(fileSlot('a/1', false));
    const names = await readdir(root);
    expect(names).toContain('platform-site-files-' + process.ppid + '-abc');
    expect(names).not.toContain('platform-site-files-999999999-abc');
    expect(names).not.toContain(`platform-site-files-${process.pid}-old`);
    expect(names).toHaveLength(2);
  });

  it('keeps on disk, as stored only, a file over the compression limit', async () => {
    const script = big('export const answer = 42;\n');
    const cache = cacheOf(1024, async () => script, new DiskTier(64 * DISK_TIER_MIN_BYTES, root), script.length - 1);
    const file = await cache.get(fileSlot('a/1', true));
    await cache.settled();
    expect(file).toMatchObject({ gzip: null, br: null });
    expect(await streamed(onDisk(file!.identity))).toEqual(script);
  });

  it('answers a file it cannot write to disk from memory, this once', async () => {
    const bytes = Buffer.alloc(DISK_TIER_MIN_BYTES, 7);
    const cache = cacheOf(1024, async () => bytes, new DiskTier(64 * DISK_TIER_MIN_BYTES, join(root, 'missing', '\0bad')));
    expect(await cache.get(fileSlot('a/1', false))).toEqual({ identity: bytes, gzip: null, br: null });
  });
});

describe('FileCache with a full compression pool', () => {
  it('serves a file as it is while the pool is full, and offers it again at a later read', async () => {
    const text = Buffer.from('export const later = 42;\n'.repeat(20_000)); // 500 KB: in memory, its copies the workers'
    const full = new CompressionPool(1, 0);
    try {
      const cache = new FileCache(
        64 * 1024 * 1024,
        source(async () => text),
        null,
        { maxBytes: 8 * 1024 * 1024, pool: full },
      );
      const slot = fileSlot('a/1', true);
      // A compression of another file holds the only worker; no queue.
      const busy = full.submit({ input: Buffer.alloc(4 * 1024 * 1024, 1), encoding: 'br', level: 11 })!;
      const first = await cache.get(slot);
      expect(first).toMatchObject({ gzip: null, br: null });
      await cache.settled();
      expect(cache.peek(slot)).toMatchObject({ gzip: null, br: null }); // refused, nothing queued
      await busy;
      // The next read offers it again: gzip, then brotli.
      cache.peek(slot);
      await cache.settled();
      expect(gunzipSync(inMemory(cache.peek(slot)!.gzip))).toEqual(text);
      expect(brotliDecompressSync(inMemory(cache.peek(slot)!.br))).toEqual(text);
    } finally {
      await full.close();
    }
  });
});
