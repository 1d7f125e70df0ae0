import { MigrationInterface, QueryRunner } from 'typeorm';

// created_at is timestamptz(3): list cursors carry millisecond timestamps (see common/pagination).
export class CreateAppsDeploymentsUsers1763800000000 implements MigrationInterface {
  name = 'CreateAppsDeploymentsUsers1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE apps (
        id           varchar(40)    PRIMARY KEY,
        account_id   varchar(40)    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name         varchar(100)   NOT NULL,
        description  varchar(1000),
        created_at   timestamptz(3) NOT NULL DEFAULT now(),
        updated_at   timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX apps_account_created_idx ON apps (account_id, created_at DESC, id DESC)`);

    // A deployment is an immutable snapshot: a jsonb document that later issues extend (landing page, ...).
    await q.query(`
      CREATE TABLE deployments (
        id           varchar(40)    PRIMARY KEY,
        account_id   varchar(40)    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        app_id       varchar(40)    NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        env          varchar(32)    NOT NULL,
        status       varchar(16)    NOT NULL DEFAULT 'success',
        snapshot     jsonb          NOT NULL,
        created_at   timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX deployments_app_created_idx ON deployments (app_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX deployments_app_env_created_idx ON deployments (app_id, env, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX deployments_account_idx ON deployments (account_id)`);

    // The people who sign up to an app. DELETE erases the row, e-mail included.
    await q.query(`
      CREATE TABLE users (
        id           varchar(40)    PRIMARY KEY,
        account_id   varchar(40)    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        app_id       varchar(40)    NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        email        varchar(320)   NOT NULL,
        created_at   timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX users_app_email_key ON users (app_id, email)`);
    await q.query(`CREATE INDEX users_app_created_idx ON users (app_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX users_account_created_idx ON users (account_id, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE users`);
    await q.query(`DROP TABLE deployments`);
    await q.query(`DROP TABLE apps`);
  }
}
