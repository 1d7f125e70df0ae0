import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';
import type { FunctionLogLevel } from './functions.types.js';

/** The newest lines a deployment keeps. */
export const MAX_LINES = 1000;
/** How long a line is kept. */
export const KEPT_MS = 24 * 60 * 60 * 1000;

export interface StoredLogLine {
  id: string;
  deploymentId: string;
  at: Date;
  level: FunctionLogLevel;
  message: string;
}

interface Raw {
  id: string;
  deployment_id: string;
  at: Date;
  level: FunctionLogLevel;
  message: string;
}

const toLine = (r: Raw): StoredLogLine => ({ id: String(r.id), deploymentId: r.deployment_id, at: new Date(r.at), level: r.level, message: r.message });

/** The function_logs table. */
@Injectable()
export class FunctionLogsRepository {
  constructor(private readonly db: Transactions) {}

  /** One statement for a batch (lines of deployments deleted meanwhile are left out), then each deployment trimmed to its newest MAX_LINES. */
  async append(lines: ReadonlyArray<Omit<StoredLogLine, 'id'>>): Promise<void> {
    if (lines.length === 0) return;
    await this.db.query(
      `INSERT INTO function_logs (deployment_id, at, level, message)
       SELECT u.deployment_id, u.at, u.level, u.message
         FROM unnest($1::varchar[], $2::timestamptz[], $3::varchar[], $4::text[]) WITH ORDINALITY AS u(deployment_id, at, level, message, n)
         JOIN deployments d ON d.id = u.deployment_id
        ORDER BY u.n`,
      [lines.map((l) => l.deploymentId), lines.map((l) => l.at), lines.map((l) => l.level), lines.map((l) => l.message)],
    );
    const touched = [...new Set(lines.map((l) => l.deploymentId))];
    await this.db.query(
      `DELETE FROM function_logs WHERE id IN (
         SELECT id FROM (
           SELECT id, row_number() OVER (PARTITION BY deployment_id ORDER BY id DESC) AS rank FROM function_logs WHERE deployment_id = ANY($1::varchar[])
         ) ranked WHERE rank > $2)`,
      [touched, MAX_LINES],
    );
  }

  /** The newest `limit` lines after `since` (and after the line `afterId`), oldest first, none older than KEPT_MS. */
  async list(deploymentId: string, options: { since?: Date; afterId?: string; limit: number }): Promise<StoredLogLine[]> {
    const oldest = new Date(Math.max(Date.now() - KEPT_MS, options.since?.getTime() ?? 0));
    const rows = await this.db.query<Raw>(
      `SELECT * FROM (
         SELECT id, deployment_id, at, level, message FROM function_logs
          WHERE deployment_id = $1 AND at >= $2 AND id > $3
          ORDER BY id DESC LIMIT $4
       ) newest ORDER BY id`,
      [deploymentId, oldest, options.afterId ?? '0', options.limit],
    );
    return rows.map(toLine);
  }

  /** Deletes what is past KEPT_MS; answers how many. */
  async purge(): Promise<number> {
    const rows = await this.db.query<{ id: string }>(`DELETE FROM function_logs WHERE at < $1 RETURNING id`, [new Date(Date.now() - KEPT_MS)]);
    return rows.length;
  }
}
