import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module.js';
import { PeriodicModule } from '../common/periodic/periodic.module.js';
import { AccountPlans } from './account-plans.js';
import { ApiRequestMeter } from './api-request-meter.js';
import { BandwidthMeter } from './bandwidth-meter.js';
import { BillingController } from './billing.controller.js';
import { BillingService } from './billing.service.js';
import { FunctionsMeter } from './functions-meter.js';
import { Meters } from './meters.js';
import { PlanRateLimits } from './plan-rate-limits.js';
import { StatementsRepository } from './statements.repository.js';
import { StorageMeter } from './storage-meter.js';
import { StorageRepository } from './storage.repository.js';
import { StatementsService } from './statements.service.js';
import { UsageRepository } from './usage.repository.js';
import { UsageRollup } from './usage-rollup.js';

/**
 * Plans, usage, quotas and statements. Modules that do metered work import it and call `Meters`
 * (`assertRoom` before the work, `record` in its transaction); an upload asks `StorageMeter.hold`.
 * What the rate limiter takes from billing (each account's limits, the `api.requests` meter) goes
 * through BillingBindingsModule.
 */
@Module({
  imports: [AccountsModule, PeriodicModule],
  controllers: [BillingController],
  providers: [
    AccountPlans,
    PlanRateLimits,
    UsageRepository,
    Meters,
    ApiRequestMeter,
    BandwidthMeter,
    FunctionsMeter,
    StatementsRepository,
    StatementsService,
    StorageRepository,
    StorageMeter,
    BillingService,
    UsageRollup,
  ],
  exports: [Meters, ApiRequestMeter, BandwidthMeter, FunctionsMeter, StorageMeter, PlanRateLimits, BillingService, StatementsService],
})
export class BillingModule {}
