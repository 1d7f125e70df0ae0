import { Injectable } from '@nestjs/common';
import { newId } from '../common/ids.js';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { Transactions } from '../database/transactions.js';
import { AccountPlans } from './account-plans.js';
import { BillingError } from './billing.errors.js';
import { Meters } from './meters.js';
import { StorageRepository } from './storage.repository.js';
import { UsageRepository } from './usage.repository.js';

/**
 * How long an upload's hold lasts if its row never comes (the upload failed, its process died). An
 * upload still under way past it is counted when its row is stored, so it may pass the quota by its
 * own size if others took the room meanwhile (see docs/architecture.md, hidden costs).
 */
export const STORAGE_HOLD_MS = 15 * 60_000;
const SAMPLE_PAGE = 500;

/**
 * `storage.bytes`, a gauge: the bytes an account's kept files take (each file once per account, as the
 * `files` table keeps them). The level is a counter that triggers on `files` keep (a file counts from
 * the moment its row is stored until the sweep or an app's deletion removes it); a hard quota is checked
 * on it before an upload stores a file (`hold`), and a sample of it goes to the usage ledger once a day,
 * so that a statement bills the month's average (byte-months, as S3 bills GB-months).
 */
@Injectable()
export class StorageMeter {
  constructor(
    private readonly db: Transactions,
    private readonly storage: StorageRepository,
    private readonly usage: UsageRepository,
    private readonly plans: AccountPlans,
    private readonly meters: Meters,
    jobs: PeriodicJobs,
  ) {
    // Hourly, so a day missed at 00:07 (a restart) is sampled later that day; the ledger takes one sample per account and day.
    jobs.add({ name: 'storage-meter', schedule: { cron: '7 * * * *' }, runsOn: 'workers', run: ({ signal }) => this.sample(new Date(), signal) });
  }

  /**
   * Before an upload stores a new file of `bytes`: 402 when the plan's hard storage quota has no room for
   * it (the files kept and the holds of other uploads under way counted), else holds the bytes until the
   * file's row is stored (which takes the hold over) or STORAGE_HOLD_MS pass. The check and the hold are
   * one transaction under the account's meter lock, so concurrent uploads never take the quota past its
   * amount. A file the account keeps already takes no room; without a hard quota nothing is held.
   */
  async hold(accountId: string, sha256: string, bytes: number): Promise<void> {
    const quota = (await this.plans.of(accountId)).meters['storage.bytes'];
    if (!quota?.hard || quota.included === null || bytes === 0) return;
    const included = quota.included;
    await this.db.run(async () => {
      await this.usage.lockMeter(accountId, 'storage.bytes');
      const room = await this.storage.room(accountId, sha256);
      if (room.has) return;
      const used = room.stored + room.held;
      if (used + bytes > included) throw BillingError.storageFull(included, used, bytes);
      await this.usage.deleteExpiredReservations(accountId, 'storage.bytes');
      await this.storage.hold(newId('rsv'), accountId, sha256, bytes, STORAGE_HOLD_MS);
    });
  }

  /** The bytes the account keeps now. */
  level(accountId: string): Promise<number> {
    return this.storage.level(accountId);
  }

  /** Records today's level of every account that keeps files, once per account and day (the job runs hourly); answers how many were asked. */
  async sample(at = new Date(), signal?: AbortSignal): Promise<number> {
    const day = at.toISOString().slice(0, 10);
    let sampled = 0;
    for (let after = ''; !signal?.aborted;) {
      const page = await this.storage.levelsAfter(after, SAMPLE_PAGE);
      if (page.length === 0) break;
      await this.meters.recordMany(
        page.map(({ accountId, bytes }) => ({ accountId, meter: 'storage.bytes' as const, quantity: bytes, sourceId: `storage:${day}:${accountId}`, at })),
      );
      sampled += page.length;
      after = page[page.length - 1].accountId;
    }
    return sampled;
  }
}
