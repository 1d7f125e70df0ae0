import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { Clock } from './clock.js';
import { brotliLevelFor, type CompressionPool, gzipLevelFor } from './compression-pool.js';
import type { DiskEntry, DiskFile, DiskTier } from './file-disk-tier.js';

const gzipAsync = promisify(gzip);

/** A copy of a file: in memory, or on disk (the disk tier). */
export type FileBytes = Buffer | DiskFile;

/** A file's bytes as served: as stored, and compressed once (each kept only when it saves bytes). */
export interface CachedFile<B extends FileBytes = FileBytes> {
  identity: B;
  gzip: B | null;
  br: B | null;
  /** Compressed copies are still to come (the workers'): its answers vary by Accept-Encoding already. */
  pending?: boolean;
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

type Entry = CachedFile<Buffer> & { bytes: number; used: boolean; compression: Compression | null };

/** A file's compressed copies still to make: queued in the pool, or refused by a full pool (offered again at its next read). */
interface Compression {
  queued: boolean;
  /** Offers its next copy to the pool (a no-op while one is queued). */
  offer(): void;
}

/** What the cache reads from the store: small files whole, large ones as a stream (into the disk tier). */
export interface BlobSource {
  /** The blob as a stream with its size, or undefined when the store has no such blob. */
  open(key: string): Promise<{ size: number; stream: Readable } | undefined>;
}

export interface CompressionSettings {
  /** A file larger than this is never compressed on the fly (SITE_COMPRESS_MAX_BYTES). */
  maxBytes: number;
  pool: CompressionPool;
}

/**
 * File bytes in memory within `limitBytes` (all copies counted), evicted by the clock (see Clock).
 * Reads go through the blob store; concurrent misses of one key share one read. A file of
 * DISK_TIER_MIN_BYTES or more goes to the disk tier instead (copies too), when there is one: streamed
 * from the store to disk and from disk to clients, it costs the process no memory. A file larger than
 * an eighth of its tier's limit is never kept: it would push out many small ones, and is read from the
 * store each time, uncompressed.
 *
 * Compression never delays anyone else: a small file's gzip copy is made before its first answer
 * (a few milliseconds); every other copy — gzip of a large file, brotli of any — is made by the
 * compression pool's workers, at a level chosen by size, and answers take what exists until it lands
 * (identity, then gzip, then brotli). When the pool's queue is full, the file is offered again at a
 * later read. None larger than `compression.maxBytes` is compressed.
 */
export class FileCache {
  private readonly memory: Clock<Entry>;
  private readonly loading = new Map<string, Promise<CachedFile | undefined>>();
  private readonly compressing = new Set<Promise<void>>();

  constructor(
    private readonly limitBytes: number,
    private readonly blobs: BlobSource,
    readonly disk: DiskTier | null,
    readonly compression: CompressionSettings,
  ) {
    this.memory = new Clock(limitBytes);
  }

  /** The file when it is in memory (no promise: the hot path). */
  peek(file: FileSlot): CachedFile<Buffer> | undefined {
    const entry = this.memory.get(file.slot);
    if (entry?.compression && !entry.compression.queued) entry.compression.offer();
    return entry;
  }

  /**
   * The file, read (and compressed when it is compressible) if it is not kept; undefined when the store
   * has no such blob. A copy on disk must be read (`DiskEntry.read`) before the caller awaits anything.
   */
  get(file: FileSlot): Promise<CachedFile | undefined> {
    const cached = this.peek(file) ?? this.onDisk(file);
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

  /** Resolves once the compressed copies under way are made (tests). */
  async settled(): Promise<void> {
    while (this.compressing.size > 0) await Promise.allSettled([...this.compressing]);
  }

  private onDisk(file: FileSlot): DiskEntry | undefined {
    const entry = this.disk?.get(file.slot);
    const compression = entry && this.diskCompression.get(entry);
    if (compression && !compression.queued) compression.offer();
    return entry;
  }

  private readonly diskCompression = new WeakMap<DiskEntry, Compression>();

  private async fill({ key, slot, compressible }: FileSlot): Promise<CachedFile | undefined> {
    const blob = await this.blobs.open(key);
    if (!blob) return undefined;
    const { size, stream } = blob;
    const worth = compressible && size >= MIN_COMPRESS_BYTES && size <= this.compression.maxBytes;
    if (this.disk !== null && size >= DISK_TIER_MIN_BYTES && size <= this.disk.limitBytes / 8) return this.fillDisk(key, slot, size, stream, worth);
    const identity = await buffer(stream);
    if (identity.length > this.limitBytes / 8) return { identity, gzip: null, br: null };
    // A small file's gzip copy before its first answer: milliseconds, on libuv's pool.
    const gzipped = worth && identity.length < DISK_TIER_MIN_BYTES ? smaller(await gzipAsync(identity, { level: 9 }), identity) : null;
    const file: Entry = { identity, gzip: gzipped, br: null, bytes: identity.length + (gzipped?.length ?? 0), used: true, compression: null };
    this.memory.add(slot, file);
    if (worth) {
      file.pending = true;
      file.compression = this.compressLater(
        identity,
        identity.length,
        gzipped !== null,
        (copy, bytes) => {
          // Only into the entry still kept: an evicted one is made again when next read.
          if (!this.memory.holds(slot, file)) return false;
          file[copy] = bytes;
          file.bytes += bytes.length;
          this.memory.grew(bytes.length);
          return true;
        },
        () => {
          file.compression = null;
          file.pending = false;
        },
      );
    }
    return file;
  }

  /** Streams a large file from the store onto disk and keeps it there; if it cannot be written, it is read into memory this once. */
  private async fillDisk(key: string, slot: string, size: number, stream: Readable, worth: boolean): Promise<CachedFile> {
    let entry: DiskEntry;
    try {
      entry = await this.disk!.keep(slot, stream, size);
    } catch {
      const again = await this.blobs.open(key);
      return { identity: again ? await buffer(again.stream) : Buffer.alloc(0), gzip: null, br: null };
    }
    if (worth) {
      const compression = this.compressLater(
        { path: entry.identity.path },
        size,
        false,
        (copy, bytes) => this.disk!.addCopy(slot, entry, copy, bytes),
        () => {
          this.diskCompression.delete(entry);
          entry.pending = false;
        },
      );
      entry.pending = true;
      // Both copies may be refused or made already (a pool answering at once never does: its answer is a message).
      this.diskCompression.set(entry, compression);
    }
    return entry;
  }

  /**
   * Offers the copies a file lacks (gzip unless it has one, then brotli) to the pool, one at a time;
   * `keep` stores one and says whether the file is still kept (else no further copy is made); `done`
   * once there is nothing more to make.
   */
  private compressLater(
    input: Buffer | { path: string },
    size: number,
    hasGzip: boolean,
    keep: (copy: 'gzip' | 'br', bytes: Buffer) => boolean | Promise<boolean>,
    done: () => void,
  ): Compression {
    let next: 'gzip' | 'br' | null = hasGzip ? 'br' : 'gzip';
    const compression: Compression = {
      queued: false,
      offer: () => {
        if (compression.queued || next === null) return;
        const copy = next;
        const made = this.compression.pool.submit({ input, encoding: copy, level: copy === 'gzip' ? gzipLevelFor(size) : brotliLevelFor(size) });
        if (!made) return; // the pool is full: offered again at the next read
        compression.queued = true;
        const settled = made
          .then(async (bytes) => {
            // A copy that saves nothing is not kept.
            if (bytes.length < size && !(await keep(copy, bytes))) next = null;
            else next = copy === 'gzip' ? 'br' : null;
          })
          .catch(() => (next = null)) // no copy (a worker failed, the file was removed): what exists serves
          .then(() => {
            compression.queued = false;
            if (next === null) done();
            else compression.offer();
          });
        this.compressing.add(settled);
        void settled.finally(() => this.compressing.delete(settled));
      },
    };
    compression.offer();
    return compression;
  }
}

/** The whole of a (small) stream. */
async function buffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function smaller(compressed: Buffer | null, identity: Buffer): Buffer | null {
  return compressed && compressed.length < identity.length ? compressed : null;
}
