import { Global, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { IdempotencyPurgeService } from './idempotency-purge.service.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyService } from './idempotency.service.js';

/** Global, so `@Idempotent()` works in every feature module without importing this one. */
@Global()
@Module({
  imports: [ScheduleModule.forRoot()],
  providers: [IdempotencyRepository, IdempotencyService, IdempotencyInterceptor, IdempotencyPurgeService],
  exports: [IdempotencyService, IdempotencyInterceptor],
})
export class IdempotencyModule {}
