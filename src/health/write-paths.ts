import { Injectable, Logger } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { BatchWriter, BatchWriterOptions } from '../common/batch-writer.js';
import { sqlStateOf } from '../database/postgres-errors.js';
import { MetricsService } from '../metrics/metrics.service.js';

/** A write path failing for longer than this makes the instance not ready. */
export const STALLED_AFTER_MS = 30_000;

/**
 * The background write paths of this process (analytics batches, usage rollups, delivery
 * attempts): each writes through a BatchWriter made here, so that rows the database refuses are
 * set aside the same way everywhere — counted in `batch_rows_set_aside_total{writer}` and logged
 * once per batch, without their content — and a path that has kept failing (the database
 * unreachable) for more than 30 s shows in `/health/ready`.
 */
@Injectable()
export class WritePaths {
  private readonly logger = new Logger('WritePaths');
  /** The time source; tests move it instead of waiting. */
  now: () => number = Date.now;
  /** When each failing path began to fail; a path that writes again leaves. */
  private readonly failingSince = new Map<string, number>();
  private readonly setAside: Counter<'writer'>;

  constructor(metrics: MetricsService) {
    this.setAside = metrics.counter({
      name: 'batch_rows_set_aside_total',
      help: 'Rows a batch writer set aside because the database refused their data (the rest of their batch was written)',
      labelNames: ['writer'] as const,
    });
    const failing = () => this.failing();
    metrics.gauge({
      name: 'batch_writer_failing_seconds',
      help: 'How long each failing write path has been failing (0 when it writes)',
      labelNames: ['writer'] as const,
      collect() {
        this.reset();
        for (const { name, failingMs } of failing()) this.set({ writer: name }, failingMs / 1000);
      },
    });
  }

  /** A BatchWriter for the path `name` (the metric's `writer` label and the name `/health/ready` gives). */
  writer<T>(name: string, write: (items: T[]) => Promise<unknown>, options: Pick<BatchWriterOptions<T>, 'isDataError'> = {}): BatchWriter<T> {
    this.setAside.inc({ writer: name }, 0); // the series exists from the start, at 0
    return new BatchWriter<T>({
      ...options,
      write,
      onSetAside: (items, err) => {
        this.setAside.inc({ writer: name }, items.length);
        // The SQLSTATE only: the error's message may quote the refused value.
        this.logger.error(`${name}: set aside ${items.length} row(s) the database refused (SQLSTATE ${sqlStateOf(err) ?? 'unknown'}); the rest were written`);
      },
      onOutcome: (ok) => (ok ? this.succeeded(name) : this.failed(name)),
    });
  }

  /** The path wrote (or had nothing to write). */
  succeeded(name: string): void {
    this.failingSince.delete(name);
  }

  /** The path could not write (an outage); it counts as failing from the first such try on. */
  failed(name: string): void {
    if (!this.failingSince.has(name)) this.failingSince.set(name, this.now());
  }

  /** The paths failing now, with for how long. */
  failing(): Array<{ name: string; failingMs: number }> {
    const now = this.now();
    return [...this.failingSince].map(([name, since]) => ({ name, failingMs: now - since }));
  }

  /** The paths failing for more than STALLED_AFTER_MS. */
  stalled(): Array<{ name: string; failingMs: number }> {
    return this.failing().filter((path) => path.failingMs > STALLED_AFTER_MS);
  }
}
