import { BullModule, getQueueToken } from '@nestjs/bull';
import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import type { Queue } from 'bull';
import { AppConfig } from '../config/app-config.js';
import { BullQueueDriver, JITTER_BACKOFF, jitterBackoffStrategy } from './bull.driver.js';
import { InProcessQueueDriver } from './in-process.driver.js';
import { QUEUE_DRIVER, QueueService } from './queue.service.js';
import { QUEUE_NAMES, QueueName } from './queue.types.js';

/** Bull on Redis when REDIS_URL is set, an in-process queue otherwise; both behind QueueService. */
@Global()
@Module({})
export class QueueModule {
  static forRoot(config: AppConfig): DynamicModule {
    if (!config.REDIS_URL) {
      return {
        module: QueueModule,
        providers: [{ provide: QUEUE_DRIVER, useFactory: () => new InProcessQueueDriver() }, QueueService],
        exports: [QueueService],
      };
    }
    const driver: Provider = {
      provide: QUEUE_DRIVER,
      inject: QUEUE_NAMES.map((name) => getQueueToken(name)),
      useFactory: (...queues: Queue[]) => new BullQueueDriver(Object.fromEntries(QUEUE_NAMES.map((name, i) => [name, queues[i]])) as Record<QueueName, Queue>),
    };
    return {
      module: QueueModule,
      imports: [
        BullModule.forRoot({
          redis: config.REDIS_URL,
          prefix: `${config.REDIS_PREFIX}:bull`,
          settings: {
            backoffStrategies: { [JITTER_BACKOFF]: jitterBackoffStrategy },
            // A job whose worker died is taken up again after at most lockDuration + stalledInterval
            // (Bull's defaults, 30 s + 30 s, would hold a delivery up for a minute). Live workers renew
            // their lock every lockDuration / 2.
            lockDuration: 15_000,
            stalledInterval: 5_000,
          },
        }),
        BullModule.registerQueue(...QUEUE_NAMES.map((name) => ({ name }))),
      ],
      providers: [driver, QueueService],
      exports: [QueueService],
    };
  }
}
