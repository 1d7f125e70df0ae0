import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module.js';
import { AppsModule } from '../apps/apps.module.js';
import { UsersModule } from '../users/users.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { DeploymentsModule } from '../deployments/deployments.module.js';
import { DomainsModule } from '../domains/domains.module.js';
import { LandingPagesModule } from '../landing-pages/landing-pages.module.js';
import { PublishingModule } from '../publishing/publishing.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { PortalAnalyticsController } from './analytics/portal-analytics.controller.js';
import { PortalAnalyticsPages } from './analytics/portal-analytics.pages.js';
import { PortalRoutes } from './analytics/portal-route.js';
import { PortalAccountPages } from './portal-account.pages.js';
import { PortalAppsPages } from './portal-apps.pages.js';
import { PortalWebhooksPages } from './portal-webhooks.pages.js';
import { BillingModule } from '../billing/billing.module.js';
import { PortalAuthService } from './portal-auth.service.js';
import { PortalController } from './portal.controller.js';
import { PortalRepository } from './portal.repository.js';
import { PasswordHasher } from './password-hash.js';
import { SignInRateLimit } from './sign-in-rate-limit.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';

/** The developer portal at /portal/: sign-in (invites, passwords, sessions, CSRF, lockout, per-IP limit) and pages over the API's own services. */
@Module({
  imports: [
    AuthModule,
    BillingModule,
    AppsModule,
    DeploymentsModule,
    LandingPagesModule,
    PublishingModule,
    DomainsModule,
    WebhooksModule,
    UsersModule,
    AnalyticsModule,
    RateLimitModule,
  ],
  // The analytics routes before the main controller's wildcard (Fastify prefers the more specific route either way).
  controllers: [PortalAnalyticsController, PortalController],
  providers: [
    PortalRepository,
    PasswordHasher,
    PortalAuthService,
    SignInRateLimit,
    PortalAppsPages,
    PortalWebhooksPages,
    PortalAccountPages,
    PortalRoutes,
    PortalAnalyticsPages,
  ],
  exports: [PortalAuthService],
})
export class PortalModule {}
