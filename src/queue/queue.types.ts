/** The queues this service runs. Adding a queue means adding its name here. */
export const QUEUE_NAMES = ['webhooks', 'maintenance'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export interface JobOptions {
  /** Total tries including the first (default 1). */
  attempts?: number;
  /** Base of the exponential backoff with jitter between tries, in ms. */
  backoffMs?: number;
  /** Wait this long before the first try, in ms. */
  delayMs?: number;
  /** Deduplicates: a job with the same id that is still waiting or running is not added twice. */
  jobId?: string;
}

export interface JobInfo {
  id: string;
  /** 1 on the first try. */
  attempt: number;
  maxAttempts: number;
}

/**
 * Throw to fail the try; the queue retries while attempts remain. Throw `JobDeferred` to hand the
 * job back untried.
 */
export type JobHandler<T = unknown> = (data: T, job: JobInfo) => Promise<void>;

/**
 * Thrown by a handler that cannot run its job now (what it needs is busy): the job goes back to the
 * queue, delayed by `delayMs`, its slot is free for other jobs at once, and the try does not count
 * against its attempts.
 */
export class JobDeferred extends Error {
  constructor(readonly delayMs: number) {
    super(`deferred by ${delayMs} ms`);
    this.name = 'JobDeferred';
  }
}

export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

/** What a queue engine must do. Two implementations: Bull on Redis, and in-process. */
export interface QueueDriver {
  add(queue: QueueName, name: string, data: unknown, opts: JobOptions): Promise<string>;
  /** Adds jobs whose ids were never used (no finished job to make room for), in one round trip where the engine can. */
  addNew(queue: QueueName, name: string, jobs: Array<{ data: unknown; opts: JobOptions }>): Promise<void>;
  process(queue: QueueName, name: string, concurrency: number, handler: JobHandler): void;
  /** Whether a job with this id is waiting, delayed or running. */
  isLive(queue: QueueName, jobId: string): Promise<boolean>;
  counts(queue: QueueName): Promise<QueueCounts>;
  /** Whether jobs can be added now (Bull: every queue's Redis connection is ready). */
  connected(): boolean;
  close(): Promise<void>;
}

/** Exponential backoff with full jitter on the upper half: base·2^(n-1) · [0.5, 1). */
export function backoffDelay(baseMs: number, attemptsMade: number, random = Math.random): number {
  const ceiling = baseMs * 2 ** Math.max(0, attemptsMade - 1);
  return Math.round(ceiling * (0.5 + random() / 2));
}
