import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The `events` table becomes the transactional outbox: an event is written in the transaction of
 * its change, and `dispatched_at` is set once its listeners (the webhook fan-out among them) have
 * run. Events already logged were dispatched by the old in-process bus. One delivery per event and
 * endpoint, so dispatching an event again never sends it twice.
 */
export class EventsOutbox1763830000000 implements MigrationInterface {
  name = 'EventsOutbox1763830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events ADD COLUMN dispatched_at timestamptz(3), ADD COLUMN dispatch_failures integer NOT NULL DEFAULT 0`);
    await q.query(`UPDATE events SET dispatched_at = created_at`);
    await q.query(`CREATE INDEX events_undispatched_idx ON events (created_at) WHERE dispatched_at IS NULL`);
    await q.query(`DROP INDEX webhook_deliveries_event_idx`);
    await q.query(`CREATE UNIQUE INDEX webhook_deliveries_event_endpoint_key ON webhook_deliveries (event_id, endpoint_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_deliveries_event_endpoint_key`);
    await q.query(`CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id)`);
    await q.query(`DROP INDEX events_undispatched_idx`);
    await q.query(`ALTER TABLE events DROP COLUMN dispatch_failures, DROP COLUMN dispatched_at`);
  }
}
