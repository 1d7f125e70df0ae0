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

type Entry = CachedFile & { bytes: number; used: boolean };

/**
 * File bytes in memory within `limitBytes` (all copies counted), evicted by the clock algorithm: a read
 * only marks its entry used (no reordering on the hot path), and eviction walks from the oldest, giving
 * each used entry a second chance. Reads go through `load` (the blob store); concurrent misses of one
 * key share one read and one compression. The gzip copy is made before the first answer
 * (milliseconds); the brotli copy, at brotli's best quality (tens to hundreds of milliseconds for a
 * large script), in the background — answers take gzip until it lands. A file larger than an eighth of
 * the limit is never kept (nor compressed): it would push out many small ones, and is read from the
 * store each time.
 */
export class FileCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<CachedFile | undefined>>();
  private readonly compressing = new Set<Promise<void>>();
  private bytes = 0;

  constructor(
    private readonly limitBytes: number,
    private readonly load: (key: string) => Promise<Buffer | undefined>,
  ) {}

  /** The file when it is in memory (no promise: the hot path). */
  peek(file: FileSlot): CachedFile | undefined {
    const entry = this.entries.get(file.slot);
    if (entry) entry.used = true;
    return entry;
  }

  /** The file, read (and compressed when it is compressible) if it is not in memory; undefined when the store has no such blob. */
  get(file: FileSlot): Promise<CachedFile | undefined> {
    const cached = this.peek(file);
    if (cached) return Promise.resolve(cached);
    let pending = this.loading.get(file.slot);
    if (!pending) {
      pending = this.fill(file).finally(() => this.loading.delete(file.slot));
      this.loading.set(file.slot, pending);
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

  private async fill({ key, slot, compressible }: FileSlot): Promise<CachedFile | undefined> {
    const identity = await this.load(key);
    if (!identity) return undefined;
    if (identity.length > this.limitBytes / 8) return { identity, gzip: null, br: null };
    const worth = compressible && identity.length >= MIN_COMPRESS_BYTES;
    const file: Entry = { identity, gzip: worth ? smaller(await gzipAsync(identity, { level: 9 }), identity) : null, br: null, bytes: 0, used: true };
    file.bytes = identity.length + (file.gzip?.length ?? 0);
    this.entries.set(slot, file);
    this.bytes += file.bytes;
    this.evict();
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

  /** The clock: from the oldest, a used entry goes to the back unused, an unused one goes. */
  private evict(): void {
    while (this.bytes > this.limitBytes && this.entries.size > 0) {
      const [slot, entry] = this.entries.entries().next().value!;
      this.entries.delete(slot);
      if (entry.used) {
        entry.used = false;
        this.entries.set(slot, entry);
      } else {
        this.bytes -= entry.bytes;
      }
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
