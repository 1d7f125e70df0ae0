import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Role } from '../common/request-context/roles.js';

/** A person who signs in to an account's portal, with a role (see src/common/request-context/roles.ts). */
@Entity('members')
export class Member {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 40 })
  accountId: string;

  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ type: 'varchar', length: 16 })
  role: Role;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
