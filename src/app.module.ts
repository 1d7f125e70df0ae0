import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AdminModule } from './admin/admin.module.js';
import { AiModule } from './ai/ai.module.js';
import { AnalyticsModule } from './analytics/analytics.module.js';
import { ReportsModule } from './reports/reports.module.js';
import { BillingBindingsModule } from './billing/billing-bindings.module.js';
import { BillingModule } from './billing/billing.module.js';
import { PortalModule } from './portal/portal.module.js';
import { AppsModule } from './apps/apps.module.js';
import { AuditModule } from './audit/audit.module.js';
import { AuthModule } from './auth/auth.module.js';
import { HttpExceptionFilter } from './common/errors/http-exception.filter.js';
import { IdempotencyModule } from './common/idempotency/idempotency.module.js';
import { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { DatabaseTarget } from './database/data-source-options.js';
import { DeploymentsModule } from './deployments/deployments.module.js';
import { DomainsModule } from './domains/domains.module.js';
import { EventsModule } from './events/events.module.js';
import { FilesModule } from './files/files.module.js';
import { HealthModule } from './health/health.module.js';
import { HostingModule } from './hosting/hosting.module.js';
import { LandingPagesModule } from './landing-pages/landing-pages.module.js';
import { MembersModule } from './members/members.module.js';
import { MfaModule } from './mfa/mfa.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { PublishingModule } from './publishing/publishing.module.js';
import { QueueModule } from './queue/queue.module.js';
import { RedisModule } from './redis/redis.module.js';
import { SitesModule } from './sites/sites.module.js';
import { SsoModule } from './sso/sso.module.js';
import { UsersModule } from './users/users.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';

/** Wires the feature modules. Built from the validated config, so drivers are picked once, at start. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, database: DatabaseTarget, extensions: Array<Type<unknown> | DynamicModule> = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(database),
        RedisModule,
        QueueModule.forRoot(config),
        EventsModule,
        AuditModule,
        MetricsModule,
        HealthModule,
        AuthModule,
        AdminModule,
        MembersModule,
        MfaModule,
        SsoModule,
        IdempotencyModule,
        AppsModule,
        LandingPagesModule,
        FilesModule,
        DeploymentsModule,
        PublishingModule,
        DomainsModule,
        UsersModule,
        SitesModule,
        HostingModule,
        AiModule,
        WebhooksModule,
        AnalyticsModule,
        ReportsModule,
        BillingModule,
        BillingBindingsModule,
        PortalModule,
        ...extensions,
      ],
      providers: [{ provide: APP_FILTER, useClass: HttpExceptionFilter }],
    };
  }
}
