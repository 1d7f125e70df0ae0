import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { AppConfig } from '../config/app-config.js';
import { EventLogService } from './event-log.service.js';

/** Hourly, in the processes that run background work: events older than 30 days go, with their deliveries and attempts. */
@Injectable()
export class EventLogPurgeService {
  private readonly logger = new Logger('EventLogPurge');

  constructor(
    private readonly config: AppConfig,
    private readonly log: EventLogService,
  ) {}

  @Cron(CronExpression.EVERY_HOUR, { name: 'event-log-purge' })
  async run(): Promise<void> {
    if (!this.config.runsWorkers) return;
    try {
      const purged = await this.log.purgeExpired();
      if (purged > 0) this.logger.log(`Purged ${purged} event(s) older than 30 days`);
    } catch (err) {
      // The next hour tries again; reads already hide events past 30 days.
      this.logger.error({ err }, 'Purging old events failed');
    }
  }
}
