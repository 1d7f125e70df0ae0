import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { Clock } from './clock.js';
import type { DiskFile, DiskTier } from './file-disk-tier.js';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** A copy of a file: in memory, or on disk (the disk tier). */
export type FileBytes = Buffer | DiskFile;

/** A file's bytes as served: as stored, and compressed once (each kept only when it saves bytes). */
export interface CachedFile<B extends FileBytes = FileBytes> {
  identity: B;
  gzip: B | null;
  br: B | null;
}

/** From this size a file goes to the disk tier (when there is one), not memory: a few such files would fill it. */
export const DISK_TIER_MIN_BYTES = 256 * 1024;

/** Below this a compressed copy saves less than its headers cost. */
const MIN_COMPRESS_BYTES = 512;

/** A file's place in the cache: its blob key, and whether it is served compressed (the same bytes as another type are another entry). */
export interface FileSlot {
  /** `blobKey(accountId, sha256)`: what the store is asked. */
  key: string;
  compressible: boolean;
  /** The cache's own key, made once per served file (a string built per request would be hashed per request). */
  slot: string;
}

export function fileSlot(key: string, compressible: boolean): FileSlot {
  return { key, compressible, slot: compressible ? `${key}+z` : key };
}

type Entry = CachedFile<Buffer> & { bytes: number; used: boolean };

/**
 * File bytes in memory within `limitBytes` (all copies counted), evicted by the clock (see Clock).
 * Reads go through `load` (the blob store); concurrent misses of one key share one read and one
 * compression. The gzip copy is made before the first answer (milliseconds); the brotli copy, at
 * brotli's best quality (tens to hundreds of milliseconds for a large script), in the background —
 * answers take gzip until it lands. A file of DISK_TIER_MIN_BYTES or more goes to the disk tier
 * instead (copies too), when there is one: served as a stream, it costs the process no memory. A
 * file larger than an eighth of its tier's limit is never kept: it would push out many small ones,
 * and is read from the store each time; none over an eighth of the memory limit is compressed.
 */
export class FileCache {
  private readonly memory: Clock<Entry>;
  private readonly loading = new Map<string, Promise<CachedFile | undefined>>();
  private readonly compressing = new Set<Promise<void>>();

  constructor(
    private readonly limitBytes: number,
    private readonly load: (key: string) => Promise<Buffer | undefined>,
    readonly disk: DiskTier | null = null,
  ) {
    this.memory = new Clock(limitBytes);
  }

  /** The file when it is in memory (no promise: the hot path). */
  peek(file: FileSlot): CachedFile<Buffer> | undefined {
    return this.memory.get(file.slot);
  }

  /**
   * The file, read (and compressed when it is compressible) if it is not kept; undefined when the store
   * has no such blob. A copy on disk must be read (`DiskEntry.read`) before the caller awaits anything.
   */
  get(file: FileSlot): Promise<CachedFile | undefined> {
    const cached = this.peek(file) ?? this.disk?.get(file.slot);
    if (cached) return Promise.resolve(cached);
    let pending = this.loading.get(file.slot);
    if (!pending) {
      pending = this.fill(file).finally(() => this.loading.delete(file.slot));
      this.loading.set(file.slot, pending);
    }
    return pending;
  }

  /** What memory holds (the disk tier's is `disk.size`). */
  get size(): { files: number; bytes: number } {
    return this.memory.size;
  }

  /** Resolves once the brotli copies under way are made (tests). */
  async settled(): Promise<void> {
    while (this.compressing.size > 0) await Promise.allSettled([...this.compressing]);
  }

  private async fill({ key, slot, compressible }: FileSlot): Promise<CachedFile | undefined> {
    const identity = await this.load(key);
    if (!identity) return undefined;
    const toDisk = this.disk !== null && identity.length >= DISK_TIER_MIN_BYTES && identity.length <= this.disk.limitBytes / 8;
    if (!toDisk && identity.length > this.limitBytes / 8) return { identity, gzip: null, br: null };
    // On disk too, no larger file is compressed than memory would keep: its first answer waits for gzip.
    const worth = compressible && identity.length >= MIN_COMPRESS_BYTES && identity.length <= this.limitBytes / 8;
    const gzipped = worth ? smaller(await gzipAsync(identity, { level: 9 }), identity) : null;
    if (toDisk) return this.fillDisk(slot, identity, gzipped, worth);
    const file: Entry = { identity, gzip: gzipped, br: null, bytes: identity.length + (gzipped?.length ?? 0), used: true };
    this.memory.add(slot, file);
    if (worth)
      this.brotli(identity, (kept) => {
        // Only into the entry still kept: an evicted one is made again when next read.
        if (!this.memory.holds(slot, file)) return;
        file.br = kept;
        file.bytes += kept.length;
        this.memory.grew(kept.length);
      });
    return file;
  }

  /** Keeps a large file on disk; if it cannot be written there, it is answered from memory this once. */
  private async fillDisk(slot: string, identity: Buffer, gzipped: Buffer | null, worth: boolean): Promise<CachedFile> {
    let entry;
    try {
      entry = await this.disk!.keep(slot, identity, gzipped);
    } catch {
      return { identity, gzip: gzipped, br: null };
    }
    if (worth) this.brotli(identity, (kept) => this.disk!.addBrotli(slot, entry, kept));
    return entry;
  }

  /** Makes the brotli copy in the background; `keep` gets it when it saves bytes. */
  private brotli(identity: Buffer, keep: (br: Buffer) => unknown): void {
    const made = brotliAsync(identity, brotliOptions(identity.length)).then(
      async (br) => {
        const kept = smaller(br, identity);
        if (kept) await keep(kept);
      },
      () => undefined, // no brotli copy: gzip serves
    );
    const done = made.catch(() => undefined); // a copy not written to disk: gzip serves
    this.compressing.add(done);
    void done.finally(() => this.compressing.delete(done));
  }
}

/** Brotli at its best quality: a file is compressed once per instance, and served many times. */
function brotliOptions(size: number) {
  return {
    params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: size, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
  };
}

function smaller(compressed: Buffer | null, identity: Buffer): Buffer | null {
  return compressed && compressed.length < identity.length ? compressed : null;
}
