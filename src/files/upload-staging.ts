import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** An upload written to a local temporary file, with its digest: read it (`open`) to store it, then `discard` it. */
export interface StagedUpload {
  size: number;
  sha256: string;
  open(): Readable;
  discard(): Promise<void>;
}

/**
 * Writes an upload's body to a temporary file while hashing it: its digest is known before anything is
 * stored (a blob's key is its digest), and the process never holds the body whole — only the stream's
 * chunks. The file is the caller's to discard; it is removed at once if the body fails.
 */
export async function stageUpload(body: Readable, root = tmpdir()): Promise<StagedUpload> {
  const path = join(root, `platform-upload-${process.pid}-${randomBytes(8).toString('hex')}`);
  const hash = createHash('sha256');
  let size = 0;
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  try {
    await pipeline(body, hashing, createWriteStream(path, { mode: 0o600 }));
  } catch (err) {
    await rm(path, { force: true });
    throw err;
  }
  return {
    size,
    sha256: hash.digest('hex'),
    open: () => createReadStream(path),
    discard: () => rm(path, { force: true }),
  };
}
