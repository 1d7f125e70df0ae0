import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Teams: an account's members (the people who sign in to the portal), each with a role, and the
 * invitations that make new ones (single use, for one e-mail, expiring; only the token's hash is
 * kept). Every existing account gets its login as its `owner` (the account's e-mail: the one
 * portal login an account had so far); portal sessions say which member they are; an API key
 * records the member who created it (null for the keys made before, and for the operator's).
 */
export class Members1763970000000 implements MigrationInterface {
  name = 'Members1763970000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE members (
        id          varchar(40)    PRIMARY KEY,
        account_id  varchar(40)    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        email       varchar(320)   NOT NULL,
        role        varchar(16)    NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'viewer')),
        created_at  timestamptz(3) NOT NULL DEFAULT now(),
        updated_at  timestamptz(3) NOT NULL DEFAULT now()
      )`);
    // A person signs in with their e-mail alone: they are a member of one account.
    await q.query(`CREATE UNIQUE INDEX members_email_key ON members (email)`);
    await q.query(`CREATE INDEX members_account_created_idx ON members (account_id, created_at DESC, id DESC)`);
    // Ids like the service's (a prefix and 26 Crockford characters), derived from the account's id: hex digits are Crockford digits.
    await q.query(`
      INSERT INTO members (id, account_id, email, role, created_at, updated_at)
      SELECT 'mem_' || upper(substr(md5('owner:' || id), 1, 26)), id, email, 'owner', created_at, created_at FROM accounts`);
    await q.query(`
      CREATE TABLE member_invitations (
        id          varchar(40)    PRIMARY KEY,
        account_id  varchar(40)    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        token_hash  char(64)       NOT NULL UNIQUE,
        email       varchar(320)   NOT NULL,
        role        varchar(16)    NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'viewer')),
        invited_by  varchar(40),
        expires_at  timestamptz(3) NOT NULL,
        accepted_at timestamptz(3),
        created_at  timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX member_invitations_account_idx ON member_invitations (account_id, created_at DESC)`);
    await q.query(`ALTER TABLE api_keys ADD COLUMN created_by varchar(40)`);
    await q.query(`ALTER TABLE portal_sessions ADD COLUMN member_id varchar(40) REFERENCES members(id) ON DELETE CASCADE`);
    await q.query(`UPDATE portal_sessions s SET member_id = m.id FROM members m WHERE m.account_id = s.account_id AND m.role = 'owner'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE portal_sessions DROP COLUMN member_id`);
    await q.query(`ALTER TABLE api_keys DROP COLUMN created_by`);
    await q.query(`DROP TABLE member_invitations, members`);
  }
}
