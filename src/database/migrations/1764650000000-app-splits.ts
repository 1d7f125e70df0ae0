import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Split tests between deployments (`/v1/apps/:appId/split`): one row per test, its variants (deployment
 * ids and weights, in order: the first is the one the others are compared with) as JSON. At most one
 * running test per app (`ended_at` null); an ended one keeps its results' start and end for the record.
 */
export class AppSplits1764650000000 implements MigrationInterface {
  name = 'AppSplits1764650000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE app_splits (
        id          varchar(40)    PRIMARY KEY,
        account_id  varchar(40)    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        app_id      varchar(40)    NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        variants    jsonb          NOT NULL,
        started_at  timestamptz(3) NOT NULL,
        ended_at    timestamptz(3),
        ended_by    varchar(16)
      )`);
    await q.query(`CREATE UNIQUE INDEX app_splits_running_idx ON app_splits (app_id) WHERE ended_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE app_splits`);
  }
}
