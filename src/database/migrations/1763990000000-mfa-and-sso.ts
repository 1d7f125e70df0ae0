import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two-factor sign-in and the accounts' security settings. A member's TOTP secret is stored sealed
 * (AES-256-GCM, like webhook signing secrets); `enrolled_at` is null while an enrolment awaits its
 * first code; `last_step` is the TOTP time step last accepted (a code is never accepted twice).
 * Recovery codes are stored as SHA-256 hashes, each used once. `account_security` holds an
 * account's policy: MFA required, and its OpenID Connect single sign-on (client secret sealed).
 */
export class MfaAndSso1763990000000 implements MigrationInterface {
  name = 'MfaAndSso1763990000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE member_mfa (
        member_id    varchar(40)    PRIMARY KEY REFERENCES members(id) ON DELETE CASCADE,
        secret       text           NOT NULL,
        enrolled_at  timestamptz(3),
        last_step    bigint         NOT NULL DEFAULT 0,
        created_at   timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE member_recovery_codes (
        member_id  varchar(40)    NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        code_hash  char(64)       NOT NULL,
        used_at    timestamptz(3),
        PRIMARY KEY (member_id, code_hash)
      )`);
    await q.query(`
      CREATE TABLE account_security (
        account_id         varchar(40)    PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        mfa_required       boolean        NOT NULL DEFAULT false,
        sso_issuer         varchar(2048),
        sso_client_id      varchar(320),
        sso_client_secret  text,
        sso_domains        text[]         NOT NULL DEFAULT '{}',
        sso_default_role   varchar(16)    NOT NULL DEFAULT 'viewer' CHECK (sso_default_role IN ('admin', 'developer', 'viewer')),
        sso_required       boolean        NOT NULL DEFAULT false,
        updated_at         timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX account_security_sso_domains_idx ON account_security USING gin (sso_domains)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE account_security, member_recovery_codes, member_mfa`);
  }
}
