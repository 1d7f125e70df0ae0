import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Role } from '../common/request-context/roles.js';

/** An invitation to become a member (the list of pending ones reads it; only its token's hash is stored, and not mapped here). */
@Entity('member_invitations')
export class MemberInvitation {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 40 })
  accountId: string;

  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ type: 'varchar', length: 16 })
  role: Role;

  /** The member who sent it; null: a credential no member created. */
  @Column({ name: 'invited_by', type: 'varchar', length: 40, nullable: true })
  invitedBy: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz', precision: 3 })
  expiresAt: Date;

  @Column({ name: 'accepted_at', type: 'timestamptz', precision: 3, nullable: true })
  acceptedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', precision: 3, nullable: true })
  revokedAt: Date | null;

  /** When its link was e-mailed (null: answered to the inviter instead). */
  @Column({ name: 'mailed_at', type: 'timestamptz', precision: 3, nullable: true })
  mailedAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
