import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A developer account: owns apps, users, keys, service accounts and webhook endpoints. */
@Entity('accounts')
export class Account {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Column({ type: 'varchar', length: 320 })
  email: string;

  /** The billing plan's id (see src/billing/plans.ts). */
  @Column({ type: 'varchar', length: 40, default: 'free' })
  plan: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
