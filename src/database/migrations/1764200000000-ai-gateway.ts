import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The AI gateway (chat completions, embeddings, models with fallback targets) records its calls
 * in ai_usage beside `POST /v1/ai/generate`'s: what kind of call, the public model asked for, and
 * how many targets failed before the one that answered. Provider names come from
 * AI_PROVIDERS_FILE now (up to 40 characters), not only `openai` and `local`.
 */
export class AiGateway1764200000000 implements MigrationInterface {
  name = 'AiGateway1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ai_usage ALTER COLUMN provider TYPE varchar(40)`);
    await q.query(`ALTER TABLE ai_usage ADD COLUMN kind varchar(16) NOT NULL DEFAULT 'generate'`);
    await q.query(`ALTER TABLE ai_usage ADD COLUMN requested_model varchar(200)`);
    await q.query(`ALTER TABLE ai_usage ADD COLUMN fallbacks smallint NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ai_usage DROP COLUMN fallbacks`);
    await q.query(`ALTER TABLE ai_usage DROP COLUMN requested_model`);
    await q.query(`ALTER TABLE ai_usage DROP COLUMN kind`);
    await q.query(`ALTER TABLE ai_usage ALTER COLUMN provider TYPE varchar(16) USING left(provider, 16)`);
  }
}
