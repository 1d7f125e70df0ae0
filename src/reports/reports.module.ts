import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module.js';
import { AppsModule } from '../apps/apps.module.js';
import { PeriodicModule } from '../common/periodic/periodic.module.js';
import { MailModule } from '../mail/mail.module.js';
import { ReportsController } from './reports.controller.js';
import { ReportsRepository } from './reports.repository.js';
import { ReportsService } from './reports.service.js';
import { UnsubscribeController } from './unsubscribe.controller.js';
import { UnsubscribeTokens } from './unsubscribe-tokens.js';

/** E-mail reports of analytics (ReportsService): the members' switches, the sending job, the unsubscribe link. */
@Module({
  imports: [AnalyticsModule, AppsModule, MailModule, PeriodicModule],
  controllers: [ReportsController, UnsubscribeController],
  providers: [ReportsRepository, ReportsService, UnsubscribeTokens],
  exports: [ReportsService],
})
export class ReportsModule {}
