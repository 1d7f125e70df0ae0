import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module.js';
import { AppsModule } from '../apps/apps.module.js';
import { BillingModule } from '../billing/billing.module.js';
import { DeploymentsModule } from '../deployments/deployments.module.js';
import { FilesModule } from '../files/files.module.js';
import { FunctionDispatch } from '../functions/function-dispatch.js';
import { EnvVarsModule } from '../functions/env-vars.module.js';
import { FunctionsModule } from '../functions/functions.module.js';
import { SitesModule } from '../sites/sites.module.js';
import { SiteDirectory } from './site-directory.js';
import { SiteServer } from './site-server.js';
import { SplitsModule } from '../publishing/splits.module.js';

/**
 * Site origins: a deployment's own files (and its landing page, its sign-up form, the tracker) served
 * at `<label>.<SITES_DOMAIN>` by one Fastify route outside Nest's pipeline (site-routes.ts), from
 * memory. The API's addresses of the same deployments are the sites module's.
 */
@Module({
  imports: [AppsModule, DeploymentsModule, FilesModule, SitesModule, AnalyticsModule, BillingModule, FunctionsModule, EnvVarsModule, SplitsModule],
  providers: [SiteDirectory, SiteServer, FunctionDispatch],
  exports: [SiteServer, SiteDirectory, FunctionDispatch],
})
export class HostingModule {}
