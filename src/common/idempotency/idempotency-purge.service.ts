import { Injectable } from '@nestjs/common';
import { PeriodicJobs } from '../periodic/periodic-jobs.js';
import { IdempotencyService } from './idempotency.service.js';

/** Hourly removal of idempotency keys past their 24 h, in worker processes. A failed hour is made up by the next; lookups ignore expired keys meanwhile. */
@Injectable()
export class IdempotencyPurgeService {
  constructor(jobs: PeriodicJobs, idempotency: IdempotencyService) {
    jobs.add({ name: 'idempotency-purge', schedule: { cron: '0 * * * *' }, runsOn: 'workers', run: () => idempotency.purgeExpired() });
  }
}
