import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { AiErrorCode } from './ai.errors.js';

/** `success`, or the AiErrorCode that ended the generation. */
export type AiUsageOutcome = 'success' | Exclude<`${AiErrorCode}`, 'not_configured' | 'model_not_found' | 'ai_budget_exhausted'>;

/** Which route the call came through: `POST /v1/ai/generate` (and landing pages), `/v1/chat/completions`, `/v1/embeddings`. */
export type AiUsageKind = 'generate' | 'chat' | 'embeddings';

/** One generation's metering. There is no column for the prompt or the output, on purpose. */
@Entity('ai_usage')
export class AiUsage {
  /** The generation's id (`gen_…`), as the client saw it. */
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 40 })
  accountId: string;

  /** The API key or access token that asked. */
  @Column({ name: 'credential_id', type: 'varchar', length: 40, nullable: true })
  credentialId: string | null;

  @Column({ type: 'varchar', length: 16 })
  kind: AiUsageKind;

  /** The public model id the client asked for (AI_PROVIDERS_FILE's, or the one model of the single-provider settings). */
  @Column({ name: 'requested_model', type: 'varchar', length: 200, nullable: true })
  requestedModel: string | null;

  /** The provider that answered (or was asked last), by its name in AI_PROVIDERS_FILE. */
  @Column({ type: 'varchar', length: 40 })
  provider: string;

  /** The model that answered, as the provider names it. */
  @Column({ type: 'varchar', length: 200 })
  model: string;

  /** Targets of the model that failed before the one recorded here. */
  @Column({ type: 'smallint' })
  fallbacks: number;

  @Column({ type: 'boolean' })
  streamed: boolean;

  @Column({ name: 'prompt_tokens', type: 'integer' })
  promptTokens: number;

  @Column({ name: 'completion_tokens', type: 'integer' })
  completionTokens: number;

  @Column({ name: 'total_tokens', type: 'integer' })
  totalTokens: number;

  @Column({ name: 'latency_ms', type: 'integer' })
  latencyMs: number;

  @Column({ type: 'varchar', length: 32 })
  outcome: AiUsageOutcome;

  /** The HTTP status the client got (499: it went away first). */
  @Column({ name: 'status_code', type: 'smallint' })
  statusCode: number;

  @Column({ name: 'finish_reason', type: 'varchar', length: 16, nullable: true })
  finishReason: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
