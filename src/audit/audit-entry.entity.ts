import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One line of the audit log (append-only: see the migration's trigger). */
@Entity('audit_log')
export class AuditEntry {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 40 })
  accountId: string;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ name: 'actor_type', type: 'varchar', length: 16 })
  actorType: 'member' | 'credential' | 'operator';

  @Column({ name: 'actor_id', type: 'varchar', length: 64 })
  actorId: string;

  @Column({ name: 'actor_label', type: 'varchar', length: 320 })
  actorLabel: string;

  @Column({ type: 'varchar', length: 64 })
  action: string;

  @Column({ name: 'target_type', type: 'varchar', length: 32 })
  targetType: string;

  @Column({ name: 'target_id', type: 'varchar', length: 320 })
  targetId: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;
}
