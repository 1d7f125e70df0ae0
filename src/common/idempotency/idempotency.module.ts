import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { PeriodicModule } from '../periodic/periodic.module.js';
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
  imports: [PeriodicModule, DiscoveryModule],
  providers: [IdempotencyRepository, IdempotencyService, IdempotencyInterceptor, IdempotencyRoutes, IdempotencyPurgeService],
  exports: [IdempotencyService],
})
export class IdempotencyModule {}
