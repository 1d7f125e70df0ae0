import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module.js';
import { AppsModule } from '../apps/apps.module.js';
import { DeploymentsModule } from '../deployments/deployments.module.js';
import { UsersModule } from '../users/users.module.js';
import { SitePages } from './site-pages.js';
import { SitesController } from './sites.controller.js';
import { SitesService } from './sites.service.js';
import { SignupTokens } from './signup-token.js';
import { SignupService } from './signup.service.js';
import { SplitsModule } from '../publishing/splits.module.js';

/** The public addresses of deployments: their landing pages and sign-up forms (no auth, outside /v1). */
@Module({
  imports: [AppsModule, DeploymentsModule, UsersModule, AnalyticsModule, SplitsModule],
  controllers: [SitesController],
  providers: [SitesService, SitePages, SignupTokens, SignupService],
  exports: [SitePages, SignupService, SignupTokens],
})
export class SitesModule {}
