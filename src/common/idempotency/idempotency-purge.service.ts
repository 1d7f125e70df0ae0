import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { AppConfig } from '../../config/app-config.js';
import { IdempotencyService } from './idempotency.service.js';

/** Hourly removal of idempotency keys past their 24 h, in the processes that run background work. */
@Injectable()
export class IdempotencyPurgeService {
  private readonly logger = new Logger('IdempotencyPurge');

  constructor(
    private readonly config: AppConfig,
    private readonly idempotency: IdempotencyService,
  ) {}

  @Cron(CronExpression.EVERY_HOUR, { name: 'idempotency-purge' })
  async run(): Promise<void> {
    if (!this.config.runsWorkers) return;
    try {
      await this.idempotency.purgeExpired();
    } catch (err) {
      // The next hour tries again; expired keys are ignored by lookups meanwhile.
      this.logger.error({ err }, 'Purging expired idempotency keys failed');
    }
  }
}
