import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Billing: every account on a plan (`free` to begin with); a usage ledger with one row per billable
 * thing (unique per meter and the thing's id, so recording twice records once) and its daily
 * rollups (what reading a month's usage sums); the thresholds already announced (once per meter,
 * threshold and period); and closed monthly statements (one per account and period).
 */
export class CreateBilling1763900000000 implements MigrationInterface {
  name = 'CreateBilling1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE accounts ADD COLUMN plan varchar(40) NOT NULL DEFAULT 'free'`);
    await q.query(`
      CREATE TABLE usage_records (
        id           varchar(40)    PRIMARY KEY,
        account_id   varchar(40)    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        meter        varchar(40)    NOT NULL,
        source_id    varchar(100)   NOT NULL,
        quantity     bigint         NOT NULL,
        recorded_at  timestamptz(3) NOT NULL DEFAULT now(),
        UNIQUE (meter, source_id)
      )`);
    await q.query(`CREATE INDEX usage_records_account_time_idx ON usage_records (account_id, recorded_at)`);
    await q.query(`
      CREATE TABLE usage_daily (
        account_id  varchar(40)  NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        meter       varchar(40)  NOT NULL,
        day         date         NOT NULL,
        quantity    bigint       NOT NULL,
        PRIMARY KEY (account_id, meter, day)
      )`);
    await q.query(`
      CREATE TABLE usage_thresholds (
        account_id    varchar(40)    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        meter         varchar(40)    NOT NULL,
        threshold     smallint       NOT NULL,
        period_start  date           NOT NULL,
        reached_at    timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, meter, threshold, period_start)
      )`);
    await q.query(`
      CREATE TABLE statements (
        id            varchar(40)    PRIMARY KEY,
        account_id    varchar(40)    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        period_start  date           NOT NULL,
        period_end    date           NOT NULL,
        plan_id       varchar(40)    NOT NULL,
        plan_name     varchar(60)    NOT NULL,
        lines         jsonb          NOT NULL,
        total_cents   bigint         NOT NULL,
        currency      varchar(3)     NOT NULL,
        closed_at     timestamptz(3) NOT NULL DEFAULT now(),
        UNIQUE (account_id, period_start)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE statements, usage_thresholds, usage_daily, usage_records`);
    await q.query(`ALTER TABLE accounts DROP COLUMN plan`);
  }
}
