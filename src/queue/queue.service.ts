import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { JobHandler, JobOptions, QueueCounts, QueueDriver, QueueName } from './queue.types.js';

export const QUEUE_DRIVER = Symbol('QUEUE_DRIVER');

/**
 * The only door to the queue engine. Feature modules wrap it in one small service per queue
 * (which adds that queue's jobs) and register processors by job name. Processors only run in
 * the `worker` and `all` roles.
 */
@Injectable()
export class QueueService implements OnApplicationShutdown {
  private readonly logger = new Logger('QueueService');

  constructor(
    @Inject(QUEUE_DRIVER) private readonly driver: QueueDriver,
    private readonly config: AppConfig,
  ) {}

  add<T>(queue: QueueName, name: string, data: T, opts: JobOptions = {}): Promise<string> {
    return this.driver.add(queue, name, data, opts);
  }

  /**
   * Runs `handler` for the jobs of this name. `concurrency` adds to the queue's parallelism: a
   * queue runs as many jobs at once as its processors' concurrencies add up to (Bull's rule).
   */
  registerProcessor<T>(queue: QueueName, name: string, handler: JobHandler<T>, opts: { concurrency?: number } = {}): void {
    if (!this.config.runsWorkers) return;
    this.driver.process(queue, name, opts.concurrency ?? 1, handler as JobHandler);
    this.logger.log(`Processing ${queue}/${name} (concurrency ${opts.concurrency ?? 1})`);
  }

  isLive(queue: QueueName, jobId: string): Promise<boolean> {
    return this.driver.isLive(queue, jobId);
  }

  counts(queue: QueueName): Promise<QueueCounts> {
    return this.driver.counts(queue);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.driver.close();
  }
}
