import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { AiErrorCode } from './ai.errors.js';

/** `success`, or the AiErrorCode that ended the generation. */
export type AiUsageOutcome = 'success' | Exclude<`${AiErrorCode}`, 'not_configured'>;

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
  provider: string;

  @Column({ type: 'varchar', length: 200 })
  model: string;

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
