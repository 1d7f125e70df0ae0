import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { QueueError } from './queue.errors.js';
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

  /**
   * Adds a job. Gives up after QUEUE_TIMEOUT_MS (Redis unreachable) with a QueueError: what the
   * job was for is in the database, and the owner's sweep queues it again later.
   */
  add<T>(queue: QueueName, name: string, data: T, opts: JobOptions = {}): Promise<string> {
    return withTimeout(this.driver.add(queue, name, data, opts));
  }

  /** Adds jobs with fresh ids in one go (Bull: one pipeline); same timeout as `add`. */
  addNew<T>(queue: QueueName, name: string, jobs: Array<{ data: T; opts: JobOptions }>): Promise<void> {
    return withTimeout(this.driver.addNew(queue, name, jobs));
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
    return withTimeout(this.driver.isLive(queue, jobId));
  }

  counts(queue: QueueName): Promise<QueueCounts> {
    return withTimeout(this.driver.counts(queue));
  }

  /** Whether jobs can be added now; readiness reports it. */
  connected(): boolean {
    return this.driver.connected();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.driver.close();
  }
}

/** How long a queue call may wait on Redis before the caller moves on. */
export const QUEUE_TIMEOUT_MS = 2_000;

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(QueueError.unavailable()), QUEUE_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
