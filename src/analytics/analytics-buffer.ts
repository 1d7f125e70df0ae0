import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import type { Counter, Histogram } from 'prom-client';
import type { BatchWriter } from '../common/batch-writer.js';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { WritePaths } from '../health/write-paths.js';
import { MetricsService } from '../metrics/metrics.service.js';
import type { AnalyticsEvent } from './analytics-event.js';
import { AnalyticsInboxRepository } from './analytics-inbox.repository.js';
import { AnalyticsStitcher } from './analytics-stitcher.js';

/** A batch is written when this many events wait, or every FLUSH_INTERVAL_MS. */
export const BATCH_SIZE = 1000;
const FLUSH_INTERVAL_MS = 1000;
/** While the database is down events wait in memory up to this many; beyond, the oldest are dropped (and counted). */
const MAX_BUFFERED = 200_000;

/**
 * Pageviews are not written one by one on the request path: they wait here and go to the analytics
 * inbox in batches (one INSERT each, nothing else: a worker stitches visits and rollups from there,
 * AnalyticsStitcher) when BATCH_SIZE wait or every second. A batch the database
 * refuses for some rows' data is split and those rows set aside (see BatchWriter): one bad event
 * never holds up the others. A batch that fails otherwise (the database down) stays, in order, and
 * is retried; `/health/ready` tells when that has lasted over 30 s. On shutdown (SIGTERM) the rest is written after the HTTP server has stopped taking
 * requests and before the database closes: nothing buffered is lost by a graceful stop.
 */
@Injectable()
export class AnalyticsBuffer implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Analytics');
  private pending: AnalyticsEvent[] = [];
  /** Sightings still being turned into events (a salt read, say): a flush waits for them, so none is left behind. */
  private readonly arriving = new Set<Promise<unknown>>();
  private writing: Promise<void> | undefined;
  /** The last write found the database unreachable: until a write succeeds, only the timer (and shutdown) try again. */
  private outage = false;
  private closing = false;
  private readonly dropped: Counter;
  private readonly flushSeconds: Histogram;
  private readonly batches: BatchWriter<AnalyticsEvent>;

  constructor(
    private readonly inbox: AnalyticsInboxRepository,
    private readonly stitcher: AnalyticsStitcher,
    metrics: MetricsService,
    writePaths: WritePaths,
    jobs: PeriodicJobs,
  ) {
    this.batches = writePaths.writer('analytics', (batch: AnalyticsEvent[]) => this.writeBatch(batch));
    jobs.add({
      name: 'analytics-buffer',
      schedule: { everyMs: FLUSH_INTERVAL_MS },
      runsOn: 'every-instance',
      // At shutdown, the HTTP server closed and the database not yet: whatever is left goes now (5 s at most).
      atShutdown: true,
      shutdownDeadlineMs: 5000,
      cutShort: 'the analytics events still buffered are lost',
      run: ({ reason }) => (reason === 'shutdown' ? this.flushAtShutdown() : this.writePending()),
    });
    this.dropped = metrics.counter({
      name: 'analytics_buffer_overflow_total',
      help: 'Analytics events dropped because the database was unreachable for too long',
    });
    this.flushSeconds = metrics.histogram({
      name: 'analytics_flush_seconds',
      help: 'Time to write one batch of analytics events to the inbox',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    });
    const waiting = () => this.pending.length;
    metrics.gauge({
      name: 'analytics_buffered_events',
      help: 'Analytics events waiting in memory to be written to the inbox',
      collect() {
        this.set(waiting());
      },
    });
  }

  /**
   * Queues an event, without a promise: the beacon is answered at once. While shutting down, writes at
   * once and answers the write's promise (the caller waits): the final flush may already have run.
   */
  add(event: AnalyticsEvent): void | Promise<void> {
    this.pending.push(event);
    if (this.pending.length > MAX_BUFFERED) {
      const excess = this.pending.length - MAX_BUFFERED;
      this.pending.splice(0, excess);
      this.dropped.inc(excess);
      this.logger.error(`The analytics buffer is full (the database has not taken a batch for a while): dropped the ${excess} oldest event(s)`);
    }
    if (this.closing) return this.writePending();
    // A write under way goes on while full batches wait (another caller now would only queue a write of what is left: a small
    // batch); after an outage the timer tries again, not every request.
    if (this.pending.length >= BATCH_SIZE && !this.writing && !this.outage) void this.writePending(true);
  }

  /** Counts `work` (which ends by adding an event, or not) as on its way into the buffer. */
  track(work: Promise<unknown>): void {
    this.arriving.add(work);
    void work.finally(() => this.arriving.delete(work));
  }

  /**
   * Writes everything buffered or on its way so far to the inbox (one batch at a time; a failed batch
   * stays for the next try), then, where this process stitches, stitches the inbox: once it returns,
   * the events are in the stats. Tests call it too.
   */
  async flush(): Promise<void> {
    await this.flushToInbox();
    if (this.stitcher.runsHere) await this.stitcher.stitchNow();
  }

  private async flushToInbox(): Promise<void> {
    await Promise.allSettled([...this.arriving]);
    await this.writePending();
  }

  /** Writes what is buffered now (`fullOnly`: its full batches), without waiting for sightings on their way (they may be the caller). */
  private async writePending(fullOnly = false): Promise<void> {
    while (this.writing) await this.writing;
    if (this.pending.length === 0) return;
    this.writing = this.writeAll(fullOnly).finally(() => (this.writing = undefined));
    await this.writing;
  }

  /** Batches until none is left, or (`fullOnly`, while requests add events) until less than a full batch waits: the timer writes the rest. */
  private async writeAll(fullOnly: boolean): Promise<void> {
    while (this.pending.length >= (fullOnly ? BATCH_SIZE : 1)) {
      const { unwritten, error } = await this.batches.write(this.pending.splice(0, BATCH_SIZE));
      this.outage = unwritten.length > 0;
      if (unwritten.length > 0) {
        this.pending.unshift(...unwritten); // kept, in order, for the next flush
        this.logger.warn(`Could not write ${unwritten.length} analytics event(s), will retry: ${(error as Error).message}`);
        return;
      }
    }
  }

  /** One statement: all of `batch` or none. */
  private async writeBatch(batch: AnalyticsEvent[]): Promise<void> {
    const stop = this.flushSeconds.startTimer();
    try {
      await this.inbox.append(batch);
    } finally {
      stop();
    }
  }

  /** Before the HTTP server closes: from now on every event is written as it comes (in-flight requests still add some). */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    await this.flushToInbox();
  }

  /** Into the inbox only: the stitcher's own shutdown run takes it from there (or the next worker does). */
  private async flushAtShutdown(): Promise<void> {
    await this.flushToInbox();
    if (this.pending.length > 0) this.logger.error(`${this.pending.length} analytics event(s) could not be written before shutdown and are lost`);
  }
}
