import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module.js';
import { PeriodicModule } from '../common/periodic/periodic.module.js';
import { AppsModule } from '../apps/apps.module.js';
import { AnalyticsBuffer } from './analytics-buffer.js';
import { AnalyticsCollector } from './analytics-collector.js';
import { AnalyticsErasure } from './analytics-erasure.js';
import { AnalyticsExport } from './analytics-export.js';
import { AnalyticsEventsRepository } from './analytics-events.repository.js';
import { AnalyticsInboxRepository } from './analytics-inbox.repository.js';
import { AnalyticsPartitions } from './analytics-partitions.js';
import { AnalyticsStatsRepository } from './analytics-stats.repository.js';
import { AnalyticsStatsService } from './analytics-stats.service.js';
import { AnalyticsStitcher } from './analytics-stitcher.js';
import { AnalyticsWriter } from './analytics-writer.js';
import { AnalyticsController } from './analytics.controller.js';
import { CollectController } from './collect.controller.js';
import { GeoIp } from './geoip.js';
import { GoalsController } from './goals.controller.js';
import { GoalsRepository } from './goals.repository.js';
import { GoalsService } from './goals.service.js';
import { CollectService } from './collect.service.js';
import { RollupCardinality } from './rollup-cardinality.js';
import { VisitorIds } from './visitor-ids.service.js';
import { VisitorSaltsRepository } from './visitor-salts.repository.js';

/**
 * Privacy-first analytics. Counting: served pages (SitesController) and /collect hand requests to
 * AnalyticsCollector, which keeps a daily visitor id and coarse labels and queues the event in
 * AnalyticsBuffer, which appends batches to the inbox table; in a worker, AnalyticsStitcher takes the
 * inbox a batch at a time and AnalyticsWriter writes it (raw rows, visits, rollups) in one transaction.
 * Reading: AnalyticsStatsService, from the rollups when it can. AnalyticsPartitions keeps the
 * monthly partitions; VisitorIds the daily salts.
 */
@Module({
  imports: [AppsModule, BillingModule, PeriodicModule],
  controllers: [AnalyticsController, GoalsController, CollectController],
  providers: [
    VisitorSaltsRepository,
    VisitorIds,
    AnalyticsEventsRepository,
    AnalyticsErasure,
    AnalyticsStatsRepository,
    RollupCardinality,
    AnalyticsWriter,
    AnalyticsInboxRepository,
    AnalyticsStitcher,
    AnalyticsBuffer,
    GeoIp,
    AnalyticsCollector,
    AnalyticsPartitions,
    AnalyticsStatsService,
    AnalyticsExport,
    GoalsRepository,
    GoalsService,
    CollectService,
  ],
  exports: [VisitorIds, AnalyticsCollector, AnalyticsBuffer, AnalyticsStatsService, AnalyticsExport, GoalsService, CollectService],
})
export class AnalyticsModule {}
