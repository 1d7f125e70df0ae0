import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { FunctionLogsRepository, MAX_LINES, type StoredLogLine } from './function-logs.repository.js';
import type { FunctionLogLevel } from './functions.types.js';

/** The route's query, validated (LogsQueryDto). */
export interface LogsQuery {
  since?: string;
  limit?: number;
}

export interface LogLineDto {
  at: string;
  level: FunctionLogLevel;
  message: string;
}

/** How often a follower looks for new lines (they come from any node, through the database). */
const FOLLOW_POLL_MS = 500;

/** What `follow` yields when no line came for FUNCTIONS_LOGS_KEEPALIVE_MS: the stream says it is alive. */
export const KEEP_ALIVE = 'keep-alive';

/** Reading a deployment's logs (the caller checked the deployment is the account's). */
@Injectable()
export class FunctionLogsService {
  constructor(
    private readonly lines: FunctionLogsRepository,
    private readonly config: AppConfig,
  ) {}

  async list(deploymentId: string, query: LogsQuery): Promise<LogLineDto[]> {
    const { since, limit } = parseQuery(query);
    return (await this.lines.list(deploymentId, { since, limit })).map(toDto);
  }

  /**
   * With `since`: the newest `limit` lines after it, then each new line as it is written (from any node), until
   * `signal` aborts. Without: only the lines written from now on. KEEP_ALIVE after each FUNCTIONS_LOGS_KEEPALIVE_MS
   * without a line.
   */
  async *follow(deploymentId: string, query: LogsQuery, signal: AbortSignal): AsyncGenerator<LogLineDto | typeof KEEP_ALIVE> {
    const { since, limit } = parseQuery(query);
    const keepAliveMs = this.config.FUNCTIONS_LOGS_KEEPALIVE_MS;
    let batch: StoredLogLine[] = [];
    let lastSent = Date.now();
    // The newest line before anything is read: later polls start after it (or after the last line sent), so a
    // `since` with no line after it yet does not replay the older ones.
    let afterId = (await this.lines.list(deploymentId, { limit: 1 }))[0]?.id ?? '0';
    if (since) batch = await this.lines.list(deploymentId, { since, limit });
    while (!signal.aborted) {
      for (const line of batch) {
        afterId = line.id;
        lastSent = Date.now();
        yield toDto(line);
      }
      if (Date.now() - lastSent >= keepAliveMs) {
        lastSent = Date.now();
        yield KEEP_ALIVE;
      }
      await sleep(Math.min(FOLLOW_POLL_MS, Math.max(0, keepAliveMs - (Date.now() - lastSent))), signal);
      if (signal.aborted) return;
      // `since` again: a line stamped before it but written after the first read (another batch's flush) stays out.
      batch = await this.lines.list(deploymentId, { since, afterId, limit: MAX_LINES });
    }
  }
}

function parseQuery(query: LogsQuery): { since?: Date; limit: number } {
  return { since: query.since === undefined ? undefined : new Date(query.since), limit: query.limit ?? 100 };
}

function toDto(line: StoredLogLine): LogLineDto {
  return { at: line.at.toISOString(), level: line.level, message: line.message };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
