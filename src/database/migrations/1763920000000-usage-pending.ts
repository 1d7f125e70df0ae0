import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Usage waiting to be added to its daily rollup. Recording usage inserts here instead of updating
 * `usage_daily` in the caller's transaction: that row is one per account, meter and day, so every
 * concurrent metered write of an account queued on its lock (deploys and delivery attempts ran
 * one at a time). `UsageRollup` moves these rows into `usage_daily` every second in one statement;
 * readers sum both tables, so totals stay exact.
 */
export class UsagePending1763920000000 implements MigrationInterface {
  name = 'UsagePending1763920000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE usage_pending (
        record_id   varchar(40)  PRIMARY KEY,
        account_id  varchar(40)  NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        meter       varchar(40)  NOT NULL,
        day         date         NOT NULL,
        quantity    bigint       NOT NULL
      )`);
    await q.query(`CREATE INDEX usage_pending_account_meter_idx ON usage_pending (account_id, meter, day)`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Nothing pending is lost: it goes to the rollups first.
    await q.query(`
      INSERT INTO usage_daily AS u (account_id, meter, day, quantity)
      SELECT account_id, meter, day, sum(quantity) FROM usage_pending GROUP BY 1, 2, 3
      ON CONFLICT (account_id, meter, day) DO UPDATE SET quantity = u.quantity + EXCLUDED.quantity`);
    await q.query(`DROP TABLE usage_pending`);
  }
}
