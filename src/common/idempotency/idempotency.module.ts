import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { IdempotencyPurgeService } from './idempotency-purge.service.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyService } from './idempotency.service.js';

/** `Idempotency-Key` on every authenticated POST (a global interceptor), and the hourly purge of old keys. */
@Global()
@Module({
  imports: [ScheduleModule.forRoot()],
  providers: [IdempotencyRepository, IdempotencyService, { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor }, IdempotencyPurgeService],
  exports: [IdempotencyService],
})
export class IdempotencyModule {}
