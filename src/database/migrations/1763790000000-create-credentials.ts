import { MigrationInterface, QueryRunner } from 'typeorm';

/** API keys, service accounts and OAuth access tokens. Secrets are stored only as SHA-256 hashes. */
export class CreateCredentials1763790000000 implements MigrationInterface {
  name = 'CreateCredentials1763790000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE api_keys (
        id            varchar(40)  PRIMARY KEY,
        account_id    varchar(40)  NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name          varchar(100) NOT NULL,
        scopes        text[]       NOT NULL,
        key_hash      char(64)     NOT NULL,
        prefix        varchar(16)  NOT NULL,
        last4         char(4)      NOT NULL,
        created_at    timestamptz  NOT NULL DEFAULT now(),
        last_used_at  timestamptz,
        revoked_at    timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX api_keys_key_hash_key ON api_keys (key_hash)`);
    await q.query(`CREATE INDEX api_keys_account_idx ON api_keys (account_id, created_at DESC)`);

    await q.query(`
      CREATE TABLE service_accounts (
        id                  varchar(40)  PRIMARY KEY,
        account_id          varchar(40)  NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name                varchar(100) NOT NULL,
        scopes              text[]       NOT NULL,
        client_id           varchar(64)  NOT NULL,
        client_secret_hash  char(64)     NOT NULL,
        created_at          timestamptz  NOT NULL DEFAULT now(),
        revoked_at          timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX service_accounts_client_id_key ON service_accounts (client_id)`);
    await q.query(`CREATE INDEX service_accounts_account_idx ON service_accounts (account_id, created_at DESC)`);

    await q.query(`
      CREATE TABLE access_tokens (
        id                  varchar(40)  PRIMARY KEY,
        account_id          varchar(40)  NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        service_account_id  varchar(40)  NOT NULL REFERENCES service_accounts(id) ON DELETE CASCADE,
        token_hash          char(64)     NOT NULL,
        scopes              text[]       NOT NULL,
        expires_at          timestamptz  NOT NULL,
        created_at          timestamptz  NOT NULL DEFAULT now(),
        revoked_at          timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX access_tokens_token_hash_key ON access_tokens (token_hash)`);
    await q.query(`CREATE INDEX access_tokens_expires_idx ON access_tokens (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE access_tokens`);
    await q.query(`DROP TABLE service_accounts`);
    await q.query(`DROP TABLE api_keys`);
  }
}
