import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { FunctionLogsRepository, type StoredLogLine } from './function-logs.repository.js';
import type { FunctionLogLine, FunctionLogSink } from './functions.types.js';

/** Lines a deployment may write a second (in this process); past it they are dropped, and a line says how many. */
export const LINES_PER_SECOND = 100;
/** Lines are written together, at most this long after they are logged. */
const FLUSH_MS = 200;
/** A message is kept up to this many characters. */
const MAX_MESSAGE = 16 * 1024;

interface Window {
  start: number;
  count: number;
  dropped: number;
}

/**
 * Where the instances' lines go (the pool's FunctionLogSink): into the database, so that every API process's
 * instances write to one place and `GET /v1/deployments/:id/logs` reads them from any. Lines are batched (one
 * statement per FLUSH_MS) and capped per deployment at LINES_PER_SECOND: a function flooding its logs costs the
 * platform a counter, and a `system` line tells how many were dropped. The request lines the pool writes hold the
 * method, the path without its query, the status and the duration: never an address or a header.
 */
@Injectable()
export class FunctionLogStore implements FunctionLogSink, OnApplicationShutdown {
  private readonly logger = new Logger('FunctionLogs');
  private buffer: Array<Omit<StoredLogLine, 'id'>> = [];
  private readonly windows = new Map<string, Window>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly lines: FunctionLogsRepository,
    jobs: PeriodicJobs,
  ) {
    jobs.add({ name: 'function-logs-purge', schedule: { everyMs: 60 * 60 * 1000 }, runsOn: 'workers', run: async () => void (await this.lines.purge()) });
  }

  onLog(deploymentId: string, line: FunctionLogLine): void {
    const now = line.at.getTime();
    let window = this.windows.get(deploymentId);
    if (!window || now - window.start >= 1000) {
      if (window?.dropped) this.push(deploymentId, 'system', `${window.dropped} lines dropped: more than ${LINES_PER_SECOND} a second`, new Date(now));
      window = { start: now, count: 0, dropped: 0 };
      this.windows.set(deploymentId, window);
    }
    if (++window.count > LINES_PER_SECOND) {
      window.dropped++;
      return;
    }
    this.push(deploymentId, line.level, line.message, line.at);
  }

  private push(deploymentId: string, level: FunctionLogLine['level'], message: string, at: Date): void {
    this.buffer.push({ deploymentId, level, message: message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message, at });
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /** Writes what is buffered, and the dropped counts of windows that are over. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const now = Date.now();
    for (const [deploymentId, window] of this.windows) {
      if (now - window.start < 1000) continue;
      if (window.dropped)
        this.buffer.push({
          deploymentId,
          level: 'system',
          message: `${window.dropped} lines dropped: more than ${LINES_PER_SECOND} a second`,
          at: new Date(now),
        });
      this.windows.delete(deploymentId);
    }
    if (this.windows.size > 0) this.timer = setTimeout(() => void this.flush(), 1000).unref();
    const batch = this.buffer;
    this.buffer = [];
    // One write at a time, in order.
    this.flushing = this.flushing.then(() =>
      this.lines.append(batch).catch((err: Error) => this.logger.warn(`${batch.length} function log lines were not written: ${err.message}`)),
    );
    return this.flushing;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flush();
  }
}
