import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** A file's bytes as served: as stored, and compressed once (each kept only when it saves bytes). */
export interface CachedFile {
  identity: Buffer;
  gzip: Buffer | null;
  br: Buffer | null;
}

/** Below this a compressed copy saves less than its headers cost. */
const MIN_COMPRESS_BYTES = 512;

/**
 * File bytes in memory, least recently used out first, within `limitBytes` (all copies counted).
 * Reads go through `load` (the blob store); concurrent misses of one key share one read and one
 * compression. The gzip copy is made before the first answer (milliseconds); the brotli copy, at
 * brotli's best quality (tens to hundreds of milliseconds for a large script), in the background —
 * answers take gzip until it lands. A file larger than an eighth of the limit is never kept (nor
 * compressed): it would push out many small ones, and is read from the store each time.
 */
export class FileCache {
  private readonly entries = new Map<string, CachedFile & { bytes: number }>();
  private readonly loading = new Map<string, Promise<CachedFile | undefined>>();
  private readonly compressing = new Set<Promise<void>>();
  private bytes = 0;

  constructor(
    private readonly limitBytes: number,
    private readonly load: (key: string) => Promise<Buffer | undefined>,
  ) {}

  /** The file when it is in memory (no promise: the hot path). */
  peek(key: string, compressible: boolean): CachedFile | undefined {
    const slot = compressible ? `${key}+z` : key;
    const entry = this.entries.get(slot);
    if (entry) {
      // Map order doubles as recency.
      this.entries.delete(slot);
      this.entries.set(slot, entry);
    }
    return entry;
  }

  /**
   * The file, read (and compressed when `compressible`) if it is not in memory; undefined when the
   * store has no such blob. The same bytes served as another type are another entry.
   */
  get(key: string, compressible: boolean): Promise<CachedFile | undefined> {
    const cached = this.peek(key, compressible);
    if (cached) return Promise.resolve(cached);
    const slot = compressible ? `${key}+z` : key;
    let pending = this.loading.get(slot);
    if (!pending) {
      pending = this.fill(key, slot, compressible).finally(() => this.loading.delete(slot));
      this.loading.set(slot, pending);
    }
    return pending;
  }

  get size(): { files: number; bytes: number } {
    return { files: this.entries.size, bytes: this.bytes };
  }

  /** Resolves once the brotli copies under way are made (tests). */
  async settled(): Promise<void> {
    while (this.compressing.size > 0) await Promise.allSettled([...this.compressing]);
  }

  private async fill(key: string, slot: string, compressible: boolean): Promise<CachedFile | undefined> {
    const identity = await this.load(key);
    if (!identity) return undefined;
    if (identity.length > this.limitBytes / 8) return { identity, gzip: null, br: null };
    const worth = compressible && identity.length >= MIN_COMPRESS_BYTES;
    const file = { identity, gzip: worth ? smaller(await gzipAsync(identity, { level: 9 }), identity) : null, br: null as Buffer | null, bytes: 0 };
    file.bytes = identity.length + (file.gzip?.length ?? 0);
    this.keep(slot, file);
    if (worth) {
      const brotli = brotliAsync(identity, brotliOptions(identity.length)).then(
        (br) => {
          const kept = smaller(br, identity);
          // Only into the entry still kept: an evicted one is made again when next read.
          if (!kept || this.entries.get(slot) !== file) return;
          file.br = kept;
          file.bytes += kept.length;
          this.bytes += kept.length;
          this.evict();
        },
        () => undefined, // no brotli copy: gzip serves
      );
      this.compressing.add(brotli);
      void brotli.finally(() => this.compressing.delete(brotli));
    }
    return file;
  }

  private keep(slot: string, file: CachedFile & { bytes: number }): void {
    this.entries.set(slot, file);
    this.bytes += file.bytes;
    this.evict();
  }

  private evict(): void {
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.limitBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
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
