import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Quota held by work in flight: a generation reserves the most tokens it may use before it runs,
 * and settles (records what it used, deletes its reservation) in one transaction after. Quota
 * checks count live reservations beside recorded usage, so concurrent requests cannot all take the
 * last units of a hard quota. A reservation of a process that died is ignored once it expires.
 */
export class QuotaReservations1763935000000 implements MigrationInterface {
  name = 'QuotaReservations1763935000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE quota_reservations (
        id          varchar(40)    PRIMARY KEY,
        account_id  varchar(40)    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        meter       varchar(40)    NOT NULL,
        quantity    bigint         NOT NULL,
        expires_at  timestamptz(3) NOT NULL
      )`);
    await q.query(`CREATE INDEX quota_reservations_account_meter_idx ON quota_reservations (account_id, meter, expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE quota_reservations`);
  }
}
