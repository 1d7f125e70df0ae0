import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { dirname, join } from 'node:path';
import { assertBlobKey, type BlobStore } from './blob-store.js';

/**
 * Blobs as files under a folder (`DATA_DIR/files/<account>/<sha256>`): for one instance, or several
 * sharing a network file system. A blob is written under a temporary name and renamed into place,
 * so a reader sees the whole file or none, and a crash leaves only a `.tmp` file behind.
 */
export class FolderBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  async put(key: string, body: Readable, size: number): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      const out = createWriteStream(temporary, { mode: 0o600 });
      await pipeline(body, out);
      if (out.bytesWritten !== size) throw new Error(`wrote ${out.bytesWritten} bytes of ${size}`);
      await rename(temporary, path);
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async open(key: string): Promise<{ size: number; stream: Readable } | undefined> {
    let file;
    try {
      file = await open(this.pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    // The open file, not its name: a blob replaced or deleted meanwhile is read whole, as it was.
    const { size } = await file.stat().catch(async (err: unknown) => {
      await file.close();
      throw err;
    });
    return { size, stream: file.createReadStream() };
  }

  async has(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  async delete(keys: string[]): Promise<void> {
    for (const key of keys) await rm(this.pathOf(key), { force: true });
  }

  private pathOf(key: string): string {
    assertBlobKey(key);
    return join(this.root, key);
  }
}
