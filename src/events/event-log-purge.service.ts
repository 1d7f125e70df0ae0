import { Injectable, Logger } from '@nestjs/common';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { EventLogService } from './event-log.service.js';

/** Hourly, in worker processes: events older than 30 days go, with their deliveries and attempts. A failed hour is made up by the next; reads already hide events past 30 days. */
@Injectable()
export class EventLogPurgeService {
  private readonly logger = new Logger('EventLogPurge');

  constructor(
    jobs: PeriodicJobs,
    private readonly log: EventLogService,
  ) {
    jobs.add({ name: 'event-log-purge', schedule: { cron: '0 * * * *' }, runsOn: 'workers', run: () => this.run() });
  }

  async run(): Promise<void> {
    const purged = await this.log.purgeExpired();
    if (purged > 0) this.logger.log(`Purged ${purged} event(s) older than 30 days`);
  }
}
