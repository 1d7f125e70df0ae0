import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAccounts1763780000000 implements MigrationInterface {
  name = 'CreateAccounts1763780000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE accounts (
        id          varchar(40)  PRIMARY KEY,
        email       varchar(320) NOT NULL,
        created_at  timestamptz  NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX accounts_email_key ON accounts (email)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE accounts`);
  }
}
