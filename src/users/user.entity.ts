import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A person who signed up to an app. Deleting the row erases them (the e-mail lives nowhere else). */
@Entity('users')
export class AppUser {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 40 })
  accountId: string;

  @Column({ name: 'app_id', type: 'varchar', length: 40 })
  appId: string;

  /** Normalised: trimmed, lowercase. Unique per app. */
  @Column({ type: 'varchar', length: 320 })
  email: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
