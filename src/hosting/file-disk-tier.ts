import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, rmSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Clock } from './clock.js';

/** A body read from the disk tier, with its length (the Content-Length it is sent with). */
export type SizedStream = Readable & { length: number };

/** One copy (as stored, gzip or brotli) of a file kept on disk. */
export interface DiskFile {
  readonly path: string;
  readonly length: number;
  readonly entry: DiskEntry;
}

type Copy = 'identity' | 'gzip' | 'br';

/**
 * A file's copies in the disk tier. Its files are removed once it is evicted and no stream reads
 * them — never sooner: a stream is made in the same tick its entry was found (no await between), and
 * the removal of an evicted entry waits for the next turn of the event loop.
 */
export class DiskEntry {
  bytes = 0;
  used = true;
  identity!: DiskFile;
  gzip: DiskFile | null = null;
  br: DiskFile | null = null;
  /** Compressed copies are still to come (see CachedFile). */
  pending = false;
  private readers = 0;
  private evicted = false;
  private removing = false;
  private markRemoved!: () => void;
  /** Resolves once its files are removed. */
  readonly removed = new Promise<void>((resolve) => (this.markRemoved = resolve));

  /** A stream of bytes `start`–`end` (inclusive) of one of its copies. */
  read(file: DiskFile, start = 0, end = file.length - 1): SizedStream {
    this.readers++;
    const stream = createReadStream(file.path, { start, end });
    stream.once('close', () => {
      this.readers--;
      this.removeWhenUnread();
    });
    return Object.assign(stream, { length: end - start + 1 });
  }

  /** Whether a copy may still be added to it (not evicted). */
  get kept(): boolean {
    return !this.evicted;
  }

  evict(): void {
    this.evicted = true;
    setImmediate(() => this.removeWhenUnread());
  }

  private removeWhenUnread(): void {
    if (!this.evicted || this.readers > 0 || this.removing) return;
    this.removing = true;
    const files = [this.identity, this.gzip, this.br].filter((file) => file !== null);
    void Promise.all(files.map((file) => rm(file.path, { force: true }).catch(() => undefined))).then(this.markRemoved);
  }
}

const PREFIX = 'platform-site-files-';
/** This process's folders, removed when it exits (a killed process's are removed by the next one to start). */
const ours = new Set<string>();

/**
 * Large site files on local disk, within `limitBytes` (all copies counted), evicted by the clock:
 * streamed from there, the operating system's page cache caches them — memory outside the process.
 * Each instance has its own folder under the system's temporary folder, made on the first file kept;
 * folders left by processes no longer running are removed then. A file's copies get names of their
 * own (a counter), so a file evicted and kept again never shares a name with its removed copy.
 */
export class DiskTier {
  private readonly clock: Clock<DiskEntry>;
  private folder: Promise<string> | undefined;
  private written = 0;

  constructor(
    readonly limitBytes: number,
    private readonly root = tmpdir(),
  ) {
    this.clock = new Clock(limitBytes);
  }

  /**
   * The entry, if its file is still there: a folder under the temporary one may be emptied by the system's
   * cleaner (a stat, once per answer of a large file); one that is gone is dropped, and read again.
   */
  get(slot: string): DiskEntry | undefined {
    const entry = this.clock.get(slot);
    if (!entry || existsSync(entry.identity.path)) return entry;
    this.clock.drop(slot, entry);
    entry.evict();
    return undefined;
  }

  get size(): { files: number; bytes: number } {
    return this.clock.size;
  }

  /** Streams a file (`size` bytes, from the blob store) into the tier and keeps it; its compressed copies come later (`addCopy`). */
  async keep(slot: string, identity: Readable, size: number): Promise<DiskEntry> {
    const entry = new DiskEntry();
    entry.identity = await this.write(entry, 'identity', identity);
    if (entry.identity.length !== size) {
      await rm(entry.identity.path, { force: true });
      throw new Error(`the store sent ${entry.identity.length} bytes of ${size}`);
    }
    entry.bytes = size;
    this.evicted(this.clock.add(slot, entry));
    return entry;
  }

  /** Adds a compressed copy made in the background, if its entry is still kept (false when it is not). */
  async addCopy(slot: string, entry: DiskEntry, copy: 'gzip' | 'br', bytes: Buffer): Promise<boolean> {
    if (!this.clock.holds(slot, entry)) return false;
    const file = await this.write(entry, copy, Readable.from([bytes]));
    if (!entry.kept || !this.clock.holds(slot, entry)) {
      await rm(file.path, { force: true });
      return false;
    }
    entry[copy] = file;
    entry.bytes += bytes.length;
    this.evicted(this.clock.grew(bytes.length));
    return true;
  }

  private evicted(entries: DiskEntry[]): void {
    for (const entry of entries) entry.evict();
  }

  private async write(entry: DiskEntry, copy: Copy, bytes: Readable): Promise<DiskFile> {
    const folder = await this.ownFolder();
    // Again each time: the system's cleaner may have removed the folder since.
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const path = join(folder, `${++this.written}.${copy}`);
    const out = createWriteStream(path, { mode: 0o600 });
    try {
      await pipeline(bytes, out);
    } catch (err) {
      await rm(path, { force: true });
      throw err;
    }
    return { path, length: out.bytesWritten, entry };
  }

  private ownFolder(): Promise<string> {
    this.folder ??= (async () => {
      await removeStaleFolders(this.root);
      const folder = join(this.root, `${PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
      // Ours before it exists: another tier of this process starting now must not take it for stale.
      if (ours.size === 0) process.once('exit', () => ours.forEach((path) => rmSync(path, { recursive: true, force: true })));
      ours.add(folder);
      await mkdir(folder, { recursive: true, mode: 0o700 });
      return folder;
    })();
    return this.folder;
  }
}

/** The tier's folders whose process is gone (or is this one, restarted with the same id: a container's first process). */
async function removeStaleFolders(root: string): Promise<void> {
  const names = await readdir(root).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(PREFIX)) continue;
    const pid = Number(name.slice(PREFIX.length).split('-')[0]);
    const path = join(root, name);
    if (ours.has(path) || (pid !== process.pid && isRunning(pid))) continue;
    await rm(path, { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
