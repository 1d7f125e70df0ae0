import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { AppErasure, AppErasureParticipant } from '../apps/app-erasure.js';
import { StorageMeter } from '../billing/storage-meter.js';
import { Transactions } from '../database/transactions.js';
import { BLOB_STORE, blobKey, type BlobStore } from './blob-store.js';
import { FileDto } from './dto/file.dto.js';
import { FilesError } from './files.errors.js';
import { FilesRepository } from './files.repository.js';
import { FilesSweep } from './files-sweep.service.js';
import { stageUpload } from './upload-staging.js';

export const SHA256_HEX = /^[0-9a-f]{64}$/;

/** What a deploy learns of the files its manifest names. */
export interface ClaimedFiles {
  /** Size of each hash the account has. */
  sizes: Map<string, number>;
  /** The hashes it does not have (each once, in manifest order). */
  missing: string[];
}

/**
 * Uploads (content-addressed, per account) and the files' life: a deploy references them, the
 * sweep deletes those nothing references after 24 h, and deleting an app deletes those only its
 * deployments referenced.
 *
 * Invariant: a `files` row means its blob is written (a blob is written before its row, and deleted
 * while its row is locked for deletion). A re-upload of a file whose blob went missing anyway (a
 * sweep whose COMMIT failed after deleting blobs) writes it again.
 */
@Injectable()
export class FilesService implements AppErasureParticipant, OnModuleInit {
  constructor(
    private readonly db: Transactions,
    private readonly files: FilesRepository,
    private readonly sweep: FilesSweep,
    private readonly appErasure: AppErasure,
    private readonly storage: StorageMeter,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
  ) {}

  onModuleInit(): void {
    this.appErasure.register(this);
  }

  /**
   * Stores `body` as `sha256` for the account, once: `created` is false when the account had it (nothing
   * rewritten). `declaredSize` (its Content-Length) is held against the storage quota before a byte is
   * read; a body without one is held once it is read. The body is streamed to a temporary file while
   * hashed, and into the blob store only once its digest is checked.
   */
  async upload(accountId: string, sha256: string, body: Readable, declaredSize?: number): Promise<FileDto & { created: boolean }> {
    if (!SHA256_HEX.test(sha256)) throw FilesError.invalidSha256();
    // The plan's storage: 402 past a hard quota; otherwise the bytes are held until the row below takes them over.
    if (declaredSize !== undefined) await this.storage.hold(accountId, sha256, declaredSize);
    const staged = await stageUpload(body);
    try {
      if (staged.sha256 !== sha256) throw FilesError.digestMismatch(sha256, staged.sha256);
      if (declaredSize === undefined) await this.storage.hold(accountId, sha256, staged.size);
      const key = blobKey(accountId, sha256);
      // An upload of a file the account has restarts its 24 h (so a deploy right after it finds it); a sweep deleting it now makes this wait, then find nothing.
      if ((await this.files.touch(accountId, sha256)) !== undefined) {
        if (!(await this.blobs.has(key))) await this.blobs.put(key, staged.open(), staged.size);
        return { sha256, size: staged.size, created: false };
      }
      await this.blobs.put(key, staged.open(), staged.size);
      const created = await this.files.insert(accountId, sha256, staged.size);
      return { sha256, size: staged.size, created };
    } finally {
      await staged.discard();
    }
  }

  /**
   * Inside a deploy's transaction: the sizes of the hashes the account has (locked until the deploy
   * commits, so no sweep takes them), and which it lacks.
   */
  async claim(accountId: string, hashes: string[]): Promise<ClaimedFiles> {
    const sizes = await this.files.lockForDeploy(accountId, hashes);
    return { sizes, missing: hashes.filter((h) => !sizes.has(h)) };
  }

  /** Inside the deploy's transaction, once it is sure to deploy: its files are referenced (never swept). */
  markReferenced(accountId: string, hashes: string[]): void {
    this.files.markReferenced(accountId, hashes);
  }

  /**
   * Inside the transaction deleting an app: the files only its deployments referenced lose their
   * mark, and once it commits they are deleted (rows and blobs). Locked first, so a deploy of
   * another app referencing one of them meanwhile either commits before (and keeps it) or waits
   * (and then finds it gone: 400 files_missing).
   */
  async eraseApp(accountId: string, appId: string): Promise<void> {
    const hashes = await this.files.hashesOfApp(appId);
    if (hashes.length === 0) return;
    await this.files.lockForUpdate(accountId, hashes);
    const elsewhere = await this.files.referencedByOtherApps(accountId, appId, hashes);
    const orphans = hashes.filter((h) => !elsewhere.has(h));
    if (orphans.length === 0) return;
    await this.files.markUnreferenced(accountId, orphans);
    // A file this misses (a deploy held it at that moment and then did not reference it) goes with the 24 h sweep.
    this.db.afterCommit(() => this.sweep.collect(accountId, orphans));
  }
}
