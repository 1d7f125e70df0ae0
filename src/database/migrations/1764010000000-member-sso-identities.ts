import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The provider identity (issuer and subject) each member signed in with through single sign-on the
 * first time: later sign-ins must come from the same identity, not merely the same e-mail.
 */
export class MemberSsoIdentities1764010000000 implements MigrationInterface {
  name = 'MemberSsoIdentities1764010000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE member_sso_identities (
        member_id  varchar(40) PRIMARY KEY REFERENCES members(id) ON DELETE CASCADE,
        issuer     text        NOT NULL,
        subject    text        NOT NULL,
        linked_at  timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT member_sso_identities_subject_key UNIQUE (issuer, subject)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE member_sso_identities`);
  }
}
