import { Injectable, Logger } from '@nestjs/common';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { AuditLog } from './audit-log.service.js';

/** Daily, in worker processes: audit entries older than 400 days go. A failed day is made up by the next. */
@Injectable()
export class AuditLogPurgeService {
  private readonly logger = new Logger('AuditLogPurge');

  constructor(
    jobs: PeriodicJobs,
    private readonly log: AuditLog,
  ) {
    jobs.add({ name: 'audit-log-purge', schedule: { cron: '17 3 * * *' }, runsOn: 'workers', run: () => this.run() });
  }

  async run(): Promise<void> {
    const purged = await this.log.purgeExpired();
    if (purged > 0) this.logger.log(`Purged ${purged} audit entr${purged === 1 ? 'y' : 'ies'} older than 400 days`);
  }
}
