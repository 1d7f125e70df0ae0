import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The server code's logs, per deployment (docs/functions.md): console output and one line per request, written by
 * whichever API process runs the instance, so every node's lines are in one place. Bounded: the newest 1,000 lines of
 * a deployment, none older than 24 hours (trimmed as lines are written, purged hourly).
 */
export class FunctionLogs1764630001000 implements MigrationInterface {
  name = 'FunctionLogs1764630001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE function_logs (
        id             bigserial      PRIMARY KEY,
        deployment_id  varchar(40)    NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
        at             timestamptz(3) NOT NULL,
        level          varchar(8)     NOT NULL,
        message        text           NOT NULL
      )`);
    await q.query(`CREATE INDEX function_logs_deployment_idx ON function_logs (deployment_id, id)`);
    await q.query(`CREATE INDEX function_logs_at_idx ON function_logs (at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE function_logs`);
  }
}
