import { Injectable, Logger } from '@nestjs/common';
import type { Counter, Histogram } from 'prom-client';
import type { BatchWriter } from '../common/batch-writer.js';
import { PeriodicJob, PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { AppConfig } from '../config/app-config.js';
import { Transactions } from '../database/transactions.js';
import { WritePaths } from '../health/write-paths.js';
import { MetricsService } from '../metrics/metrics.service.js';
import type { AnalyticsEvent } from './analytics-event.js';
import { AnalyticsInboxRepository, InboxBacklog } from './analytics-inbox.repository.js';
import { AnalyticsWriter } from './analytics-writer.js';

/** Inbox rows stitched per transaction. */
export const STITCH_BATCH = 1000;
const STITCH_INTERVAL_MS = 1000;

/**
 * Turns the analytics inbox into events, visits and rollups, in a worker (APP_ROLE `worker` or
 * `all`): takes (deletes) the oldest STITCH_BATCH rows and writes them with AnalyticsWriter, in
 * one transaction — a crash loses nothing and counts nothing twice. One stitcher at a time (an
 * advisory lock for the transaction; a second one finds it taken and leaves), so each row is
 * stitched once and each visitor's events in order. Rows the database refuses for their data (an
 * event outside every partition) are set aside as the buffer's are (BatchWriter, each part in a
 * savepoint) and gone with the rest. Runs every second, and again at once while a full batch
 * waits; at shutdown it stitches what it can within 5 s (the rest waits in the inbox).
 */
@Injectable()
export class AnalyticsStitcher {
  private readonly logger = new Logger('Analytics');
  private readonly job: PeriodicJob;
  private readonly batches: BatchWriter<AnalyticsEvent>;
  private readonly written: Counter;
  private readonly stitchSeconds: Histogram;

  constructor(
    private readonly db: Transactions,
    private readonly inbox: AnalyticsInboxRepository,
    private readonly writer: AnalyticsWriter,
    private readonly writePaths: WritePaths,
    private readonly config: AppConfig,
    metrics: MetricsService,
    jobs: PeriodicJobs,
  ) {
    this.batches = writePaths.writer('analytics-stitch', (part: AnalyticsEvent[]) =>
      this.inbox.inSavepoint(() => this.writer.write(part)).then((n) => this.written.inc(n)),
    );
    this.job = jobs.add({
      name: 'analytics-stitch',
      schedule: { everyMs: STITCH_INTERVAL_MS },
      runsOn: 'workers',
      atStart: true, // what an earlier process left in the inbox
      atShutdown: true,
      shutdownDeadlineMs: 5000,
      cutShort: 'the rest stays in the inbox for the next worker',
      run: ({ signal, reason }) => this.drain(reason === 'shutdown' ? undefined : signal),
    });
    this.written = metrics.counter({
      name: 'analytics_events_written_total',
      help: 'Analytics events stitched into visits and rollups',
    });
    this.stitchSeconds = metrics.histogram({
      name: 'analytics_stitch_seconds',
      help: 'Time to stitch one batch of the analytics inbox (events, visits, rollups)',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    });
    // One query for both gauges at each scrape (their collects start together); a database that does not answer leaves them as they were.
    let reading: Promise<InboxBacklog | undefined> | undefined;
    const backlog = () =>
      (reading ??= this.inbox
        .backlog()
        .catch(() => undefined)
        .finally(() => (reading = undefined)));
    const gauge = (name: string, help: string, of: (backlog: InboxBacklog) => number) =>
      metrics.gauge({
        name,
        help,
        async collect() {
          const now = await backlog();
          if (now) this.set(of(now));
        },
      });
    gauge('analytics_inbox_events', 'Analytics events in the inbox waiting to be stitched (counted up to 1,000,000)', (b) => b.events);
    gauge('analytics_inbox_oldest_seconds', 'Age of the oldest analytics event waiting to be stitched (0: none waits)', (b) => b.oldestSeconds);
  }

  /** Whether this process stitches (a worker, or the single process of APP_ROLE=all). */
  get runsHere(): boolean {
    return this.config.runsWorkers;
  }

  /** Stitches what waits now, in a run that begins after this call (a run in progress may have read the inbox before the caller's rows came). */
  async stitchNow(): Promise<void> {
    await this.job.runNow();
    await this.job.runNow();
  }

  /** Batches until less than a full one waits, another stitcher has the inbox, or (but in the shutdown's own run) the shutdown began. */
  private async drain(signal?: AbortSignal): Promise<void> {
    while ((await this.stitchBatch()) === STITCH_BATCH && !signal?.aborted);
  }

  /** One transaction: the oldest rows taken and stitched. Answers how many rows it took (0 when another stitcher holds the inbox). */
  private async stitchBatch(): Promise<number> {
    const stop = this.stitchSeconds.startTimer();
    try {
      const taken = await this.db.run(async () => {
        if (!(await this.inbox.lockForStitching())) return 0;
        const events = await this.inbox.take(STITCH_BATCH);
        if (events.length === 0) return 0;
        const { unwritten, error } = await this.batches.write(events);
        if (unwritten.length > 0) throw error; // an outage: rolled back, the whole batch back in the inbox
        return events.length;
      });
      this.writePaths.succeeded('analytics-stitch');
      return taken;
    } catch (err) {
      this.writePaths.failed('analytics-stitch');
      this.logger.warn(`Could not stitch the analytics inbox, will retry: ${(err as Error).message}`);
      return 0;
    } finally {
      stop();
    }
  }
}
