import { Logger } from '@nestjs/common';
import type { Job, JobOptions as BullJobOptions, Queue } from 'bull';
import { backoffDelay, JobDeferred, JobHandler, JobOptions, QueueCounts, QueueDriver, QueueName } from './queue.types.js';

/** Name of the custom Bull backoff strategy registered on every queue (see queue.module.ts). */
export const JITTER_BACKOFF = 'exponentialJitter';

/** A deferred job waits as long as its handler asked; a failed try, the jittered exponential backoff. */
export function jitterBackoffStrategy(attemptsMade: number, err: Error, options: { baseMs?: number } | null): number {
  if (err instanceof JobDeferred) return Math.max(1, err.delayMs);
  return backoffDelay(options?.baseMs ?? 1000, attemptsMade);
}

/** Bull on Redis: jobs survive restarts and are shared by every worker process. */
export class BullQueueDriver implements QueueDriver {
  private readonly logger = new Logger('BullQueue');

  constructor(private readonly queues: Record<QueueName, Queue>) {}

  async add(queue: QueueName, name: string, data: unknown, opts: JobOptions): Promise<string> {
    if (opts.jobId) {
      // Bull ignores an add whose id exists in any state; a finished one must make room.
      const existing = await this.queues[queue].getJob(opts.jobId);
      if (existing && (await existing.isFailed())) await existing.remove();
    }
    const job = await this.queues[queue].add(name, data, bullOptions(opts));
    return String(job.id);
  }

  async addNew(queue: QueueName, name: string, jobs: Array<{ data: unknown; opts: JobOptions }>): Promise<void> {
    if (jobs.length > 0) await this.queues[queue].addBulk(jobs.map((j) => ({ name, data: j.data, opts: bullOptions(j.opts) })));
  }

  process(queue: QueueName, name: string, concurrency: number, handler: JobHandler): void {
    // The promise settles only when processing stops, and rejects when the queue is closed while it
    // starts (a shutdown right after the start) or Redis fails (Bull emits 'error' for that too):
    // left unhandled, that rejection ended the process with a raw "Connection is closed." trace.
    this.queues[queue]
      .process(name, concurrency, async (job: Job) => {
        try {
          await handler(job.data, { id: String(job.id), attempt: job.attemptsMade + 1, maxAttempts: job.opts.attempts ?? 1 });
        } catch (err) {
          if (!(err instanceof JobDeferred)) throw err;
          throw deferral(job, err.delayMs);
        }
      })
      .catch((err: Error) => this.logger.debug(`Processing ${queue}/${name} stopped: ${err.message}`));
    this.queues[queue].on('failed', (job, err) => {
      if (job.name === name && !(err instanceof JobDeferred) && job.attemptsMade >= (job.opts.attempts ?? 1)) {
        this.logger.warn(`Job ${queue}/${name} ${job.id} failed after ${job.attemptsMade} attempt(s): ${err.message}`);
      }
    });
  }

  async isLive(queue: QueueName, jobId: string): Promise<boolean> {
    // One read of the job's hash, not Bull's getState: that asks list after list, so a job moving between two of them
    // meanwhile (delayed → waiting → active → delayed, as a deferred job does) is in none it asked. The hash says it
    // atomically: a completed job's is deleted (removeOnComplete), a failed one's gets finishedOn in the same script
    // that moves it to `failed`; any other job is waiting, delayed, active or paused.
    const job = await this.queues[queue].getJob(jobId);
    return job !== null && !job.finishedOn;
  }

  async counts(queue: QueueName): Promise<QueueCounts> {
    const c = await this.queues[queue].getJobCounts();
    return { waiting: c.waiting, active: c.active, delayed: c.delayed, failed: c.failed };
  }

  connected(): boolean {
    // Each queue reconnects on its own schedule after an outage, later than the shared connection may.
    return Object.values(this.queues).every((queue) => queue.client.status === 'ready');
  }

  async close(): Promise<void> {
    // @nestjs/bull closes the queues on shutdown; nothing of ours to release.
  }
}

/**
 * A deferral goes through Bull's failure path, the one way Bull 4 offers to move an active job back to
 * `delayed` in one atomic step: `moveToFailed` counts a try (attemptsMade + 1, saved with the job), so
 * this one is taken back first, and `jitterBackoffStrategy` answers the delay asked for. The error
 * carries no stack (Bull keeps the stack of every failure in the job).
 */
function deferral(job: Job, delayMs: number): JobDeferred {
  job.attemptsMade -= 1;
  const err = new JobDeferred(delayMs);
  err.stack = '';
  return err;
}

function bullOptions(opts: JobOptions): BullJobOptions {
  return {
    attempts: opts.attempts ?? 1,
    delay: opts.delayMs,
    jobId: opts.jobId,
    removeOnComplete: true,
    // Failed jobs are kept briefly for inspection, but never block a re-add under the same id (see add and isLive).
    removeOnFail: 1000,
    backoff: { type: JITTER_BACKOFF, options: { baseMs: opts.backoffMs ?? 1000 } } as unknown as BullJobOptions['backoff'],
  };
}
