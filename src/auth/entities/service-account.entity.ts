import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity('service_accounts')
export class ServiceAccount {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 40 })
  accountId: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'text', array: true })
  scopes: string[];

  @Column({ name: 'client_id', type: 'varchar', length: 64 })
  clientId: string;

  /** SHA-256 (hex) of the client secret. */
  @Column({ name: 'client_secret_hash', type: 'char', length: 64 })
  clientSecretHash: string;

  /** The member who created it (in the portal, or with a key of theirs): their current role bounds it and its tokens. Null: the operator's, or made before creators were recorded. */
  @Column({ name: 'created_by', type: 'varchar', length: 40, nullable: true })
  createdBy: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  /** Its AI budget: the most `ai.tokens` its calls may use per UTC day and month (null: no limit of its own). */
  @Column({ name: 'ai_tokens_per_day', type: 'integer', nullable: true })
  aiTokensPerDay: number | null;

  @Column({ name: 'ai_tokens_per_month', type: 'integer', nullable: true })
  aiTokensPerMonth: number | null;
}
