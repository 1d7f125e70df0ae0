import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export type AppVisibility = 'public' | 'unlisted';
export type PublishState = 'draft' | 'published' | 'unpublished';

/** An app of a developer account. Its deployments snapshot it; its users sign up to it. */
@Entity('apps')
export class App {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 40 })
  accountId: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  description: string | null;

  /** The public address (`/p/<slug>/`, `<slug>.<SITES_DOMAIN>`), unique on the server. */
  @Column({ type: 'varchar', length: 40 })
  slug: string;

  /** `public` apps are listed in the catalogue once published; `unlisted` ones only answer at their address. */
  @Column({ type: 'varchar', length: 16, default: 'unlisted' })
  visibility: AppVisibility;

  @Column({ name: 'publish_state', type: 'varchar', length: 16, default: 'draft' })
  publishState: PublishState;

  /** The deployment the public address serves, while published. */
  @Column({ name: 'published_deployment_id', type: 'varchar', length: 40, nullable: true })
  publishedDeploymentId: string | null;

  @Column({ name: 'published_at', type: 'timestamptz', precision: 3, nullable: true })
  publishedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}

/**
 * A slug given up, held for 30 days: an app's old slug redirects (301) to the app's address, and a
 * deleted app's slug answers 404; meanwhile no other account may take it (the app's own account
 * may reuse a deleted app's slug).
 */
@Entity('slug_redirects')
export class SlugRedirect {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  slug: string;

  /** The app it redirects to; null once that app is deleted. */
  @Column({ name: 'app_id', type: 'varchar', length: 40, nullable: true })
  appId: string | null;

  /** The account it is held for. */
  @Column({ name: 'account_id', type: 'varchar', length: 40 })
  accountId: string;

  @Column({ name: 'expires_at', type: 'timestamptz', precision: 3 })
  expiresAt: Date;
}
