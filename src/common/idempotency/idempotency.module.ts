import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { IdempotencyPurgeService } from './idempotency-purge.service.js';
import { IdempotencyRoutes } from './idempotency-routes.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyService } from './idempotency.service.js';

/**
 * `Idempotency-Key` on every authenticated POST (the interceptor, bound to each POST route by
 * IdempotencyRoutes), and the hourly purge of old keys.
 */
@Global()
@Module({
  imports: [ScheduleModule.forRoot(), DiscoveryModule],
  providers: [IdempotencyRepository, IdempotencyService, IdempotencyInterceptor, IdempotencyRoutes, IdempotencyPurgeService],
  exports: [IdempotencyService],
})
export class IdempotencyModule {}
