import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppsModule } from '../apps/apps.module.js';
import { FilesModule } from '../files/files.module.js';
import { EnvVarsModule } from '../functions/env-vars.module.js';
import { FunctionLogsController } from '../functions/function-logs.controller.js';
import { FunctionsModule } from '../functions/functions.module.js';
import { LandingPagesModule } from '../landing-pages/landing-pages.module.js';
import { Deployment } from './deployment.entity.js';
import { DeploymentsController } from './deployments.controller.js';
import { DeploymentsRepository } from './deployments.repository.js';
import { DeploymentsService } from './deployments.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Deployment]), AppsModule, LandingPagesModule, BillingModule, FilesModule, FunctionsModule, EnvVarsModule],
  controllers: [DeploymentsController, FunctionLogsController],
  providers: [DeploymentsRepository, DeploymentsService],
  exports: [DeploymentsService],
})
export class DeploymentsModule {}
