import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { backoffDelay, JobDeferred, JobHandler, JobOptions, QueueCounts, QueueDriver, QueueName } from './queue.types.js';

interface Job {
  id: string;
  queue: QueueName;
  name: string;
  data: unknown;
  attemptsMade: number;
  maxAttempts: number;
  backoffMs: number;
  timer?: NodeJS.Timeout;
}

/** One per queue. As in Bull, a queue runs as many jobs at once as its processors' concurrencies add up to. */
interface Worker {
  handlers: Map<string, JobHandler>;
  concurrency: number;
  active: number;
}

/**
 * The queue for the embedded default: same semantics as the Bull driver (attempts, exponential
 * backoff with jitter, delay, per-queue concurrency, job-id dedupe, deferral) but held in memory, so
 * jobs do not survive a restart; the owners' recovery sweeps re-queue what was lost.
 */
export class InProcessQueueDriver implements QueueDriver {
  private readonly logger = new Logger('InProcessQueue');
  private readonly workers = new Map<string, Worker>();
  private readonly ready = new Map<string, Job[]>();
  private readonly live = new Map<string, Job>();
  private readonly running = new Set<Promise<void>>();
  private readonly failed = new Map<QueueName, number>();
  private closed = false;

  async add(queue: QueueName, name: string, data: unknown, opts: JobOptions): Promise<string> {
    const id = opts.jobId ?? randomUUID();
    const key = `${queue}:${id}`;
    if (this.closed || this.live.has(key)) return id;
    const job: Job = { id, queue, name, data, attemptsMade: 0, maxAttempts: opts.attempts ?? 1, backoffMs: opts.backoffMs ?? 1000 };
    this.live.set(key, job);
    this.schedule(job, opts.delayMs ?? 0);
    return id;
  }

  async addNew(queue: QueueName, name: string, jobs: Array<{ data: unknown; opts: JobOptions }>): Promise<void> {
    for (const job of jobs) await this.add(queue, name, job.data, job.opts);
  }

  process(queue: QueueName, name: string, concurrency: number, handler: JobHandler): void {
    const worker = this.workers.get(queue) ?? { handlers: new Map(), concurrency: 0, active: 0 };
    worker.handlers.set(name, handler);
    worker.concurrency += concurrency;
    this.workers.set(queue, worker);
    this.drain(queue);
  }

  async isLive(queue: QueueName, jobId: string): Promise<boolean> {
    return this.live.has(`${queue}:${jobId}`);
  }

  async counts(queue: QueueName): Promise<QueueCounts> {
    const counts = { waiting: 0, active: 0, delayed: 0, failed: this.failed.get(queue) ?? 0 };
    for (const job of this.live.values()) {
      if (job.queue !== queue) continue;
      if (job.timer) counts.delayed++;
      else if (this.ready.get(queue)?.includes(job)) counts.waiting++;
      else counts.active++;
    }
    return counts;
  }

  connected(): boolean {
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.live.values()) if (job.timer) clearTimeout(job.timer);
    await Promise.allSettled([...this.running]);
  }

  private schedule(job: Job, delayMs: number): void {
    if (delayMs > 0) {
      job.timer = setTimeout(() => {
        job.timer = undefined;
        this.enqueue(job);
      }, delayMs);
      job.timer.unref();
    } else {
      this.enqueue(job);
    }
  }

  private enqueue(job: Job): void {
    const list = this.ready.get(job.queue) ?? [];
    list.push(job);
    this.ready.set(job.queue, list);
    this.drain(job.queue);
  }

  /** Starts waiting jobs, oldest first, while the queue has free slots; jobs nobody processes wait. */
  private drain(queue: QueueName): void {
    const worker = this.workers.get(queue);
    const list = this.ready.get(queue);
    if (!worker || !list) return;
    for (let i = 0; i < list.length && !this.closed && worker.active < worker.concurrency;) {
      const handler = worker.handlers.get(list[i].name);
      if (!handler) {
        i++;
        continue;
      }
      const [job] = list.splice(i, 1);
      worker.active++;
      const run = this.run(job, handler).finally(() => {
        worker.active--;
        this.running.delete(run);
        this.drain(queue);
      });
      this.running.add(run);
    }
  }

  private async run(job: Job, handler: JobHandler): Promise<void> {
    job.attemptsMade++;
    try {
      await handler(job.data, { id: job.id, attempt: job.attemptsMade, maxAttempts: job.maxAttempts });
      this.live.delete(`${job.queue}:${job.id}`);
    } catch (err) {
      if (err instanceof JobDeferred) {
        job.attemptsMade--;
        // Closing: dropped like every job held in memory (the owners' sweeps re-queue what was lost).
        if (this.closed) this.live.delete(`${job.queue}:${job.id}`);
        else this.schedule(job, err.delayMs);
      } else if (job.attemptsMade < job.maxAttempts && !this.closed) {
        this.schedule(job, backoffDelay(job.backoffMs, job.attemptsMade));
      } else {
        this.live.delete(`${job.queue}:${job.id}`);
        this.failed.set(job.queue, (this.failed.get(job.queue) ?? 0) + 1);
        this.logger.warn(`Job ${job.queue}/${job.name} ${job.id} failed after ${job.attemptsMade} attempt(s): ${(err as Error).message}`);
      }
    }
  }
}
