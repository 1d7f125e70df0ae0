import { Inject, Injectable, Logger } from '@nestjs/common';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { Transactions } from '../database/transactions.js';
import { BLOB_STORE, blobKey, type BlobStore } from './blob-store.js';
import { type FileKey, FilesRepository } from './files.repository.js';

/** Unreferenced files are kept this long after their last upload (a deploy usually follows its uploads within minutes). */
export const UNREFERENCED_FILE_TTL_MS = 24 * 60 * 60 * 1000;
const SWEEP_BATCH = 500;

/**
 * Hourly, in the processes that run background work: deletes the files no deployment references,
 * 24 h after their last upload (rows and blobs). Each batch deletes its blobs while its rows are
 * locked for deletion, then the rows, in one transaction: an upload of the same file meanwhile
 * waits for it and writes the blob again; a deploy holding a row is skipped. A failed hour is made
 * up by the next; nothing references these files meanwhile.
 */
@Injectable()
export class FilesSweep {
  private readonly logger = new Logger('FilesSweep');

  constructor(
    private readonly db: Transactions,
    private readonly files: FilesRepository,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    jobs: PeriodicJobs,
  ) {
    jobs.add({
      name: 'files-sweep',
      schedule: { cron: '0 * * * *' },
      runsOn: 'workers',
      run: ({ signal }) => this.sweep(new Date(Date.now() - UNREFERENCED_FILE_TTL_MS), signal),
    });
  }

  /** Deletes the unreferenced files last uploaded before `before` (until `signal` aborts: the next hour carries on); answers how many. */
  async sweep(before: Date, signal?: AbortSignal): Promise<number> {
    let deleted = 0;
    while (!signal?.aborted) {
      const batch = await this.db.run(async () => this.deleteLocked(await this.files.lockSweepable(before, SWEEP_BATCH)));
      deleted += batch;
      if (batch < SWEEP_BATCH) break;
    }
    if (deleted > 0) this.logger.log(`Deleted ${deleted} unreferenced files`);
    return deleted;
  }

  /** Deletes those of an account's files that are still unreferenced, whatever their age (after an app's deletion); answers how many. */
  async collect(accountId: string, hashes: string[]): Promise<number> {
    let deleted = 0;
    for (let i = 0; i < hashes.length; i += SWEEP_BATCH) {
      const chunk = hashes.slice(i, i + SWEEP_BATCH);
      deleted += await this.db.run(async () => this.deleteLocked(await this.files.lockUnreferenced(accountId, chunk)));
    }
    return deleted;
  }

  /** Inside the batch's transaction, its rows locked: blobs, then rows. A blob that cannot be deleted is left behind (logged), never a row without its blob. */
  private async deleteLocked(keys: FileKey[]): Promise<number> {
    if (keys.length === 0) return 0;
    try {
      await this.blobs.delete(keys.map((k) => blobKey(k.accountId, k.sha256)));
    } catch (err) {
      this.logger.error({ err, files: keys.length }, 'Deleting blobs failed; their rows go, the blobs stay behind');
    }
    await this.files.delete(keys);
    return keys.length;
  }
}
