import type { Readable } from 'node:stream';

/**
 * Where uploaded file contents live: a folder (DATA_DIR/files, the embedded default) or an
 * S3-compatible object store (STORAGE_URL). Content-addressed and per account: a blob's key is
 * `blobKey(accountId, sha256)`, so one account can never read or overwrite another's, and writing a
 * key again writes the same bytes.
 */
export interface BlobStore {
  /** Writes `size` bytes read from `body` (streamed: an upload is never held in memory whole). */
  put(key: string, body: Readable, size: number): Promise<void>;
  /** The bytes, or undefined when there is no such blob. */
  get(key: string): Promise<Buffer | undefined>;
  /** The bytes as a stream, with their size (large files go to disk or a client without being held in memory); undefined when there is no such blob. */
  open(key: string): Promise<{ size: number; stream: Readable } | undefined>;
  has(key: string): Promise<boolean>;
  /** Deletes what exists of these keys (a missing one is no error). */
  delete(keys: string[]): Promise<void>;
}

export const BLOB_STORE = Symbol('BLOB_STORE');

export function blobKey(accountId: string, sha256: string): string {
  return `${accountId}/${sha256}`;
}

/** The shape every store accepts: `<account id>/<64 lowercase hex>`, nothing that could leave its folder or bucket prefix. */
export const BLOB_KEY_PATTERN = /^[A-Za-z0-9_]{1,40}\/[0-9a-f]{64}$/;

export function assertBlobKey(key: string): void {
  if (!BLOB_KEY_PATTERN.test(key)) throw new Error(`Not a blob key: ${JSON.stringify(key.slice(0, 120))}`);
}
