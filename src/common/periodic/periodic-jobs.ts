import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CronJob } from 'cron';
import { AppConfig } from '../../config/app-config.js';
import { withDeadline } from '../with-deadline.js';

/** How long a shutdown waits for a job's run in progress unless the job says otherwise. */
export const SHUTDOWN_DEADLINE_MS = 5000;

/**
 * Where a job runs: `workers`, in the processes that run background work (APP_ROLE `worker` or
 * `all`; work on the shared database, which one process may do for all); `every-instance`, in
 * every process (work on what the process holds in memory: a buffer, counts).
 */
export type JobRunsOn = 'workers' | 'every-instance';

export interface JobTick {
  /** Aborted as soon as the application begins to shut down: a run over many batches stops between two. */
  signal: AbortSignal;
  /** Why it runs: the start (`atStart`), its schedule, the shutdown (`atShutdown`), or a caller of `runNow`. */
  reason: 'start' | 'schedule' | 'shutdown' | 'call';
}

export interface PeriodicJobSpec {
  /** Its name in logs and in the table of jobs (docs/architecture.md). */
  name: string;
  /** Every `everyMs` milliseconds, or at the times of a `cron` expression (5 fields, or 6 with seconds), in UTC. */
  schedule: { everyMs: number } | { cron: string };
  runsOn: JobRunsOn;
  /** Also once as soon as the application has started. */
  atStart?: boolean;
  /** Also once at shutdown, after the run in progress: what is held in memory goes out before the database closes. */
  atShutdown?: boolean;
  /** How long the shutdown waits for the run in progress (and the last one, with `atShutdown`) before it goes on. */
  shutdownDeadlineMs?: number;
  /** What a run cut short by the shutdown deadline leaves undone, for the warning. */
  cutShort?: string;
  /** One run. A failure is logged; the next time runs as usual. */
  run(tick: JobTick): Promise<unknown>;
}

export interface PeriodicJob {
  /** Runs the job now, unless a run is in progress: then answers when that one ends. Never rejects (a failure is logged). */
  runNow(): Promise<void>;
}

/**
 * The one way to do background work on a schedule. A job is registered (`add`) by the service
 * whose work it is, from its constructor; this service then starts it once the application has
 * started, where its `runsOn` says (APP_ROLE), never runs it twice at once (a time that comes while
 * it runs is skipped), and at shutdown stops its timer, aborts its signal and waits for its run in
 * progress — then, with `atShutdown`, runs it once more — up to its deadline.
 *
 * One instance, in PeriodicModule, which the modules with jobs import: it is deeper than any of
 * them, so Nest stops it after their own shutdown hooks and before the global modules (the
 * database, the queue, Redis, the event dispatcher) close.
 */
@Injectable()
export class PeriodicJobs implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('PeriodicJobs');
  private readonly jobs: Job[] = [];
  private readonly stopping = new AbortController();
  private state: 'registering' | 'started' | 'stopped' = 'registering';

  constructor(private readonly config: AppConfig) {}

  add(spec: PeriodicJobSpec): PeriodicJob {
    const job = new Job(spec, this.stopping.signal, this.logger);
    this.jobs.push(job);
    if (this.state === 'started' && this.runsHere(job)) job.start();
    return job;
  }

  onApplicationBootstrap(): void {
    this.state = 'started';
    for (const job of this.jobs) if (this.runsHere(job)) job.start();
  }

  /** Before the HTTP server closes: no new run begins, and runs over many batches stop between two. */
  beforeApplicationShutdown(): void {
    this.state = 'stopped';
    this.stopping.abort();
    for (const job of this.jobs) job.stop();
  }

  /** The HTTP server is closed, the database not yet: runs in progress end, and the last runs go, each within its deadline. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.jobs.map((job) => job.finish(this.runsHere(job))));
  }

  private runsHere(job: Job): boolean {
    return job.spec.runsOn === 'every-instance' || this.config.runsWorkers;
  }
}

class Job implements PeriodicJob {
  private running?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private cron?: CronJob;

  constructor(
    readonly spec: PeriodicJobSpec,
    private readonly signal: AbortSignal,
    private readonly logger: Logger,
  ) {}

  runNow(): Promise<void> {
    return this.run('call');
  }

  start(): void {
    const { schedule } = this.spec;
    if ('everyMs' in schedule) {
      this.timer = setInterval(() => void this.run('schedule'), schedule.everyMs);
      this.timer.unref();
    } else {
      // The `cron` package, as @nestjs/schedule's @Cron uses it.
      this.cron = CronJob.from({ cronTime: schedule.cron, onTick: () => void this.run('schedule'), start: true, timeZone: 'UTC', unrefTimeout: true });
    }
    if (this.spec.atStart) void this.run('start');
  }

  stop(): void {
    clearInterval(this.timer);
    void this.cron?.stop();
  }

  /** The run in progress, then the last one (`atShutdown`, where the job ran), within the deadline. */
  async finish(ranHere: boolean): Promise<void> {
    const ms = this.spec.shutdownDeadlineMs ?? SHUTDOWN_DEADLINE_MS;
    const last = (async () => {
      await this.running;
      if (ranHere && this.spec.atShutdown) await this.run('shutdown');
    })();
    await withDeadline(last, ms, () =>
      this.logger.warn(
        `Shutdown: ${this.spec.name} did not finish within ${ms} ms, going on without it${this.spec.cutShort ? ` (${this.spec.cutShort})` : ''}`,
      ),
    );
  }

  /** One run at a time: a run asked for while one is in progress is that one. */
  private run(reason: JobTick['reason']): Promise<void> {
    return (this.running ??= Promise.resolve()
      .then(() => this.spec.run({ signal: this.signal, reason }))
      .then(
        () => undefined,
        (err: unknown) => this.logger.error({ err }, `${this.spec.name} failed; it runs again at its next time`),
      )
      .finally(() => (this.running = undefined)));
  }
}
