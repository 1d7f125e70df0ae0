import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * AI budgets per credential: an API key or a service account may carry `aiTokensPerDay` and
 * `aiTokensPerMonth`. The usage ledger and the quota holds remember whose budget a thing counts
 * against (`subject_id`: the key's or the service account's id), so that a hold is checked against
 * the subject's usage of the period plus its live holds in one statement, under the meter's lock.
 */
export class AiBudgets1764210000000 implements MigrationInterface {
  name = 'AiBudgets1764210000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['api_keys', 'service_accounts']) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN ai_tokens_per_day integer, ADD COLUMN ai_tokens_per_month integer`);
    }
    await q.query(`ALTER TABLE usage_records ADD COLUMN subject_id varchar(40)`);
    await q.query(`CREATE INDEX usage_records_subject_idx ON usage_records (subject_id, meter, recorded_at) WHERE subject_id IS NOT NULL`);
    await q.query(`ALTER TABLE quota_reservations ADD COLUMN subject_id varchar(40)`);
    await q.query(`CREATE INDEX quota_reservations_subject_idx ON quota_reservations (subject_id, meter, expires_at) WHERE subject_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX quota_reservations_subject_idx`);
    await q.query(`ALTER TABLE quota_reservations DROP COLUMN subject_id`);
    await q.query(`DROP INDEX usage_records_subject_idx`);
    await q.query(`ALTER TABLE usage_records DROP COLUMN subject_id`);
    for (const table of ['api_keys', 'service_accounts']) {
      await q.query(`ALTER TABLE ${table} DROP COLUMN ai_tokens_per_day, DROP COLUMN ai_tokens_per_month`);
    }
  }
}
