import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateIdempotencyKeys1763800000001 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1763800000001';

  async up(q: QueryRunner): Promise<void> {
    // One row per (account, Idempotency-Key). status_code NULL = the first request is still running.
    // response_body is the exact JSON text sent the first time (jsonb would reorder its keys).
    await q.query(`
      CREATE TABLE idempotency_keys (
        account_id     varchar(40)   NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        key            varchar(255)  NOT NULL,
        method         varchar(10)   NOT NULL,
        path           varchar(2048) NOT NULL,
        request_hash   char(64)      NOT NULL,
        status_code    smallint,
        response_body  text,
        created_at     timestamptz   NOT NULL DEFAULT now(),
        completed_at   timestamptz,
        PRIMARY KEY (account_id, key)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys`);
  }
}
