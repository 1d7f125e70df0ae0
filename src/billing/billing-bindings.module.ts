import { Global, Module } from '@nestjs/common';
import { AccountLimits } from '../common/account-limits.js';
import { ApiRequestListener } from '../common/api-request-listener.js';
import { ApiRequestMeter } from './api-request-meter.js';
import { BillingModule } from './billing.module.js';
import { PlanRateLimits } from './plan-rate-limits.js';

/**
 * What billing lends the rest of the service through contracts of src/common/: each account's
 * request limits (its plan's) and the `api.requests` meter, told of every API request. Global, so
 * the rate limiter finds them without importing billing (a lint rule keeps the two apart).
 */
@Global()
@Module({
  imports: [BillingModule],
  providers: [
    { provide: AccountLimits, useExisting: PlanRateLimits },
    { provide: ApiRequestListener, useExisting: ApiRequestMeter },
  ],
  exports: [AccountLimits, ApiRequestListener],
})
export class BillingBindingsModule {}
