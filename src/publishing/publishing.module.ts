import { Module } from '@nestjs/common';
import { AppsModule } from '../apps/apps.module.js';
import { DeploymentsModule } from '../deployments/deployments.module.js';
import { CatalogController } from './catalog.controller.js';
import { PublishingController } from './publishing.controller.js';
import { PublishingService } from './publishing.service.js';

/** Publishing (POST …/publish, …/unpublish: the public address serves one deployment) and the catalogue of published public apps. */
@Module({
  imports: [AppsModule, DeploymentsModule],
  controllers: [PublishingController, CatalogController],
  providers: [PublishingService],
  exports: [PublishingService],
})
export class PublishingModule {}
