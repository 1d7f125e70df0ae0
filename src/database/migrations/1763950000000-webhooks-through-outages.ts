import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks through a receiver's outage. A pending delivery's next try lives in the database
 * (`next_attempt_at`, up to a day ahead), so a restart or a lost queue job cannot lose it; a try
 * under way holds `attempting_until` (a lease), so two jobs for one delivery never both send it.
 * Each attempt keeps when the next one was due. An endpoint remembers since when its deliveries
 * have been failing (`failing_since`, cleared by a success) and why it was disabled.
 */
export class WebhooksThroughOutages1763950000000 implements MigrationInterface {
  name = 'WebhooksThroughOutages1763950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN next_attempt_at timestamptz(3), ADD COLUMN attempting_until timestamptz(3)`);
    // Pending deliveries of the version before: due now (a live job of theirs still runs once: the lease decides).
    await q.query(`UPDATE webhook_deliveries SET next_attempt_at = now() WHERE status = 'pending'`);
    await q.query(`ALTER TABLE webhook_deliveries ALTER COLUMN next_attempt_at SET DEFAULT now()`);
    await q.query(`DROP INDEX webhook_deliveries_pending_idx`);
    await q.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending'`);
    // Room on each page for the claim's new row version (it changes no indexed column): a HOT update, no index writes.
    await q.query(`ALTER TABLE webhook_deliveries SET (fillfactor = 75)`);
    await q.query(`ALTER TABLE webhook_attempts ADD COLUMN next_attempt_at timestamptz(3)`);
    await q.query(`ALTER TABLE webhook_endpoints ADD COLUMN disabled_reason varchar(300), ADD COLUMN failing_since timestamptz(3)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_endpoints DROP COLUMN failing_since, DROP COLUMN disabled_reason`);
    await q.query(`ALTER TABLE webhook_attempts DROP COLUMN next_attempt_at`);
    await q.query(`ALTER TABLE webhook_deliveries RESET (fillfactor)`);
    await q.query(`DROP INDEX webhook_deliveries_due_idx`);
    await q.query(`CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (created_at) WHERE status = 'pending'`);
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN attempting_until, DROP COLUMN next_attempt_at`);
  }
}
