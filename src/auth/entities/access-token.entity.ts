import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** An opaque OAuth 2.0 access token issued to a service account (client credentials grant). */
@Entity('access_tokens')
export class AccessToken {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 40 })
  accountId: string;

  @Column({ name: 'service_account_id', type: 'varchar', length: 40 })
  serviceAccountId: string;

  /** SHA-256 (hex) of the token. */
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash: string;

  @Column({ type: 'text', array: true })
  scopes: string[];

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
