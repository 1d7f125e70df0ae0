import { Column, CreateDateColumn, Entity } from 'typeorm';
import { AppOwned } from '../apps/app-owned.entity.js';

/** A person who signed up to an app. Deleting the row erases them (the e-mail lives nowhere else). */
@Entity('users')
export class AppUser extends AppOwned {
  /** Normalised: trimmed, lowercase. Unique per app. */
  @Column({ type: 'varchar', length: 320 })
  email: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
