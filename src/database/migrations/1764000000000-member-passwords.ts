import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Portal passwords per member, not per account: every member signs in with their own e-mail and
 * password. An account's password becomes its login member's (the owner whose e-mail is the
 * account's); `account_id` stays, so a member's account is one look-up away. Password-reset links
 * name the member they reset (the login member's for the links open now).
 */
export class MemberPasswords1764000000000 implements MigrationInterface {
  name = 'MemberPasswords1764000000000';

  async up(q: QueryRunner): Promise<void> {
    // Each row of an account becomes its login member's (the owner whose e-mail is the account's); none can lack
    // one (members were made from accounts), and a row that did would open nothing.
    for (const table of ['portal_passwords', 'portal_password_resets']) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN member_id varchar(40) REFERENCES members(id) ON DELETE CASCADE`);
      await q.query(`
        UPDATE ${table} t SET member_id = m.id
          FROM accounts a JOIN members m ON m.account_id = a.id AND m.email = a.email
         WHERE a.id = t.account_id`);
      await q.query(`DELETE FROM ${table} WHERE member_id IS NULL`);
      await q.query(`ALTER TABLE ${table} ALTER COLUMN member_id SET NOT NULL`);
    }
    await q.query(`ALTER TABLE portal_passwords DROP CONSTRAINT portal_passwords_pkey`);
    await q.query(`ALTER TABLE portal_passwords ADD PRIMARY KEY (member_id)`);
    await q.query(`CREATE INDEX portal_passwords_account_idx ON portal_passwords (account_id)`);
    await q.query(`CREATE INDEX portal_password_resets_member_idx ON portal_password_resets (member_id)`);
    await q.query(`CREATE INDEX portal_sessions_member_idx ON portal_sessions (member_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX portal_sessions_member_idx`);
    await q.query(`DROP INDEX portal_password_resets_member_idx`);
    await q.query(`ALTER TABLE portal_password_resets DROP COLUMN member_id`);
    await q.query(`DROP INDEX portal_passwords_account_idx`);
    // Back to one password per account: the login member's.
    await q.query(`DELETE FROM portal_passwords p USING accounts a, members m WHERE a.id = p.account_id AND m.id = p.member_id AND m.email <> a.email`);
    await q.query(`ALTER TABLE portal_passwords DROP CONSTRAINT portal_passwords_pkey`);
    await q.query(`ALTER TABLE portal_passwords DROP COLUMN member_id`);
    await q.query(`ALTER TABLE portal_passwords ADD PRIMARY KEY (account_id)`);
  }
}
