import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module.js';
import { AppsModule } from '../apps/apps.module.js';
import { DeploymentsModule } from '../deployments/deployments.module.js';
import { PortalAnalyticsPages } from '../portal/analytics/portal-analytics.pages.js';
import { PasswordsModule } from '../portal/passwords.module.js';
import { AnalyticsSharesController } from './analytics-shares.controller.js';
import { AnalyticsSharesRepository } from './analytics-shares.repository.js';
import { AnalyticsShares } from './analytics-shares.service.js';
import { SharePagesController } from './share-pages.controller.js';

/**
 * Shared dashboards (issue 47): the API that makes links to an app's analytics, and the read-only pages
 * they open. The portal's dashboard view (stateless) is given here too, so that the portal (whose analytics page
 * lists the shares) can import this module without a cycle; passwords and their lockout come from PasswordsModule,
 * as the portal's sign-in's do.
 */
@Module({
  imports: [AppsModule, AnalyticsModule, DeploymentsModule, PasswordsModule],
  controllers: [AnalyticsSharesController, SharePagesController],
  providers: [AnalyticsSharesRepository, AnalyticsShares, PortalAnalyticsPages],
  exports: [AnalyticsShares],
})
export class ShareModule {}
