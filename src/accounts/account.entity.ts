import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A developer account: owns apps, users, keys, service accounts and webhook endpoints. */
@Entity('accounts')
export class Account {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Column({ type: 'varchar', length: 320 })
  email: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
