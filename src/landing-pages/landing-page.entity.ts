import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { LandingPage } from './landing-page.js';

export type LandingPageSource = 'manual' | 'generated';

/** The saved landing page of an app (an app without a row shows its default page). */
@Entity('landing_pages')
export class LandingPageRow {
  @PrimaryColumn({ name: 'app_id', type: 'varchar', length: 40 })
  appId: string;

  @Column({ name: 'account_id', type: 'varchar', length: 40 })
  accountId: string;

  @Column({ type: 'varchar', length: 16 })
  source: LandingPageSource;

  @Column({ type: 'jsonb' })
  page: LandingPage;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
