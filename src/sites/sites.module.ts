import { Module } from '@nestjs/common';
import { DeploymentsModule } from '../deployments/deployments.module.js';
import { SitesController } from './sites.controller.js';
import { SitesService } from './sites.service.js';

@Module({
  imports: [DeploymentsModule],
  controllers: [SitesController],
  providers: [SitesService],
})
export class SitesModule {}
