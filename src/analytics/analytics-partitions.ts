import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { AppConfig } from '../config/app-config.js';
import { Transactions } from '../database/transactions.js';
import { utcDay } from './visitor-ids.service.js';

/** The tables partitioned by month (on the named column). */
const PARTITIONED = ['analytics_events', 'analytics_visits'] as const;
/** Months made ahead of the current one, so a month never begins without its partition. */
const MONTHS_AHEAD = 2;
const DAY_MS = 86_400_000;

export interface PartitionInfo {
  table: string;
  name: string;
  /** First day of the month, YYYY-MM-DD. */
  month: string;
}

/**
 * Monthly partitions of the raw analytics tables: made ahead (at start and daily), and dropped a
 * whole month at a time once all of it is older than ANALYTICS_RETENTION_DAYS — a DROP TABLE, not
 * a DELETE that would bloat the table. Rollups are not partitioned and stay. Also forgets which
 * visitors were counted on days that can no longer change.
 */
@Injectable()
export class AnalyticsPartitions implements OnModuleInit {
  private readonly logger = new Logger('Analytics');

  constructor(
    private readonly db: Transactions,
    private readonly config: AppConfig,
    jobs: PeriodicJobs,
  ) {
    jobs.add({ name: 'analytics-partitions', schedule: { cron: '5 0 * * *' }, runsOn: 'workers', run: () => this.maintain() });
  }

  async onModuleInit(): Promise<void> {
    await this.ensure();
  }

  /** The daily work (the job `analytics-partitions`, at 00:05 UTC in worker processes). */
  async maintain(now = new Date()): Promise<void> {
    await this.ensure(now);
    await this.dropExpired(now);
    await this.forgetCountedVisitors(now);
  }

  /** Makes this month's partitions and the next MONTHS_AHEAD months'. */
  async ensure(now = new Date()): Promise<void> {
    await this.db.run(async () => {
      await this.lock();
      for (let ahead = 0; ahead <= MONTHS_AHEAD; ahead++) {
        const from = monthStart(now, ahead);
        const to = monthStart(now, ahead + 1);
        for (const table of PARTITIONED) {
          await this.db.query(
            `CREATE TABLE IF NOT EXISTS ${partitionName(table, from)} PARTITION OF ${table} FOR VALUES FROM ('${utcDay(from)}') TO ('${utcDay(to)}')`,
            [],
            { prepare: false }, // a new text every month
          );
        }
      }
    });
  }

  /** Drops the partitions whose whole month is older than the retention; answers their names. */
  async dropExpired(now = new Date()): Promise<string[]> {
    const cutoff = new Date(now.getTime() - this.config.ANALYTICS_RETENTION_DAYS * DAY_MS);
    return this.db.run(async () => {
      await this.lock();
      const dropped: string[] = [];
      for (const partition of await this.list()) {
        const end = monthStart(new Date(partition.month), 1);
        if (end.getTime() > cutoff.getTime()) continue;
        await this.db.query(`DROP TABLE ${partition.name}`, [], { prepare: false });
        dropped.push(partition.name);
      }
      if (dropped.length > 0) this.logger.log(`Dropped analytics partitions older than ${this.config.ANALYTICS_RETENTION_DAYS} days: ${dropped.join(', ')}`);
      return dropped;
    });
  }

  /** The partitions that exist, oldest first. */
  async list(): Promise<PartitionInfo[]> {
    const rows = await this.db.query<{ parent: string; name: string }>(
      `SELECT parent.relname AS parent, child.relname AS name
         FROM pg_inherits i JOIN pg_class parent ON parent.oid = i.inhparent JOIN pg_class child ON child.oid = i.inhrelid
        WHERE parent.relname = ANY($1) ORDER BY child.relname`,
      [PARTITIONED],
    );
    return rows.flatMap(({ parent, name }) => {
      const m = /_p(\d{4})_(\d{2})$/.exec(name);
      return m ? [{ table: parent, name, month: `${m[1]}-${m[2]}-01` }] : [];
    });
  }

  /** Visitor days before yesterday: those days take no more events (ids are daily), so they are no longer needed (a scan of at most two days of rows, once a day). */
  async forgetCountedVisitors(now = new Date()): Promise<void> {
    await this.db.query(`DELETE FROM analytics_visitor_days WHERE day < $1`, [utcDay(new Date(now.getTime() - DAY_MS))]);
  }

  /** DDL on the partitions from several instances at once would collide: one at a time. */
  private async lock(): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(hashtextextended('analytics:partitions', 0))`);
  }
}

function monthStart(at: Date, plusMonths: number): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + plusMonths, 1));
}

function partitionName(table: string, month: Date): string {
  return `${table}_p${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}
