import { MigrationInterface, QueryRunner } from 'typeorm';
import { ANALYTICS_EVENT_COLUMNS } from './1763890000000-create-analytics.js';

/**
 * analytics_inbox: analytics events as the API took them, waiting for a worker to stitch them into
 * visits and rollups (one insert per batch on the request side; the worker's transaction that
 * stitches a batch also deletes it, so a crash loses nothing and counts nothing twice). Logged (not
 * UNLOGGED): the events must survive a crash. The columns are analytics_events' with the same types,
 * so what the inbox took the events table takes too; no foreign key (a deleted app's events are
 * dropped when stitched), no index but the id's (read in id order).
 */
export class AnalyticsInbox1764020000000 implements MigrationInterface {
  name = 'AnalyticsInbox1764020000000';

  async up(q: QueryRunner): Promise<void> {
    // analytics_events' columns as 1763890000000-create-analytics.ts made them (frozen there).
    await q.query(`
      CREATE TABLE analytics_inbox (
        id             bigint       GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        app_id         varchar(40)  NOT NULL,
        ${ANALYTICS_EVENT_COLUMNS}
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE analytics_inbox`);
  }
}
