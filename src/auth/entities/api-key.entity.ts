import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity('api_keys')
export class ApiKey {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 40 })
  accountId: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'text', array: true })
  scopes: string[];

  /** SHA-256 (hex) of the key; the key itself is never stored. */
  @Column({ name: 'key_hash', type: 'char', length: 64 })
  keyHash: string;

  @Column({ type: 'varchar', length: 16 })
  prefix: string;

  @Column({ type: 'char', length: 4 })
  last4: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  /** The member who created the key (in the portal, or with a key of theirs); null: before teams, or the operator. */
  @Column({ name: 'created_by', type: 'varchar', length: 40, nullable: true })
  createdBy: string | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  /** Its AI budget: the most `ai.tokens` its calls may use per UTC day and month (null: no limit of its own). */
  @Column({ name: 'ai_tokens_per_day', type: 'integer', nullable: true })
  aiTokensPerDay: number | null;

  @Column({ name: 'ai_tokens_per_month', type: 'integer', nullable: true })
  aiTokensPerMonth: number | null;
}
