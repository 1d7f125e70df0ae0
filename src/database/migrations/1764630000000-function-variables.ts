import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Environment variables and secrets of an app's environment, for its server code (docs/functions.md): a secret's
 * value is sealed (AES-256-GCM, the webhook secrets' scheme), a plain variable's kept as it is. A deployment takes
 * the variables of its environment as they are when it is deployed (`function_vars`, the same sealed form).
 */
export class FunctionVariables1764630000000 implements MigrationInterface {
  name = 'FunctionVariables1764630000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE env_vars (
        app_id      varchar(40)    NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        env         varchar(32)    NOT NULL,
        name        varchar(64)    NOT NULL,
        secret      boolean        NOT NULL,
        value       text           NOT NULL,
        updated_at  timestamptz(3) NOT NULL,
        PRIMARY KEY (app_id, env, name)
      )`);
    await q.query(`ALTER TABLE deployments ADD COLUMN function_vars jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE deployments DROP COLUMN function_vars`);
    await q.query(`DROP TABLE env_vars`);
  }
}
