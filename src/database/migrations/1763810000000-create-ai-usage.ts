import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row per AI generation: who, which model, tokens, latency and outcome — for usage totals,
 * analytics and billing. Prompts and outputs have no column, on purpose.
 */
export class CreateAiUsage1763810000000 implements MigrationInterface {
  name = 'CreateAiUsage1763810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ai_usage (
        id                 varchar(40)  PRIMARY KEY,
        account_id         varchar(40)  NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        credential_id      varchar(40),
        provider           varchar(16)  NOT NULL,
        model              varchar(200) NOT NULL,
        streamed           boolean      NOT NULL,
        prompt_tokens      integer      NOT NULL DEFAULT 0,
        completion_tokens  integer      NOT NULL DEFAULT 0,
        total_tokens       integer      NOT NULL DEFAULT 0,
        latency_ms         integer      NOT NULL,
        outcome            varchar(32)  NOT NULL,
        status_code        smallint     NOT NULL,
        finish_reason      varchar(16),
        created_at         timestamptz  NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ai_usage_account_created_idx ON ai_usage (account_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ai_usage`);
  }
}
