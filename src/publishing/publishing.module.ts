import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module.js';
import { AppsModule } from '../apps/apps.module.js';
import { DeploymentsModule } from '../deployments/deployments.module.js';
import { CatalogController } from './catalog.controller.js';
import { PublishingController } from './publishing.controller.js';
import { PublishingService } from './publishing.service.js';
import { SplitController } from './split.controller.js';
import { SplitService } from './split.service.js';
import { SplitsModule } from './splits.module.js';

/**
 * Publishing (POST …/publish, …/unpublish: the public address serves one deployment), split tests between deployments
 * (…/split), and the catalogue of published public apps.
 */
@Module({
  imports: [AppsModule, DeploymentsModule, AnalyticsModule, SplitsModule],
  controllers: [PublishingController, SplitController, CatalogController],
  providers: [PublishingService, SplitService],
  exports: [PublishingService, SplitService],
})
export class PublishingModule {}
