import { Column, CreateDateColumn, Entity } from 'typeorm';
import { AppOwned } from '../apps/app-owned.entity.js';
import type { DeploymentSnapshot } from './deployment-snapshot.js';
import type { StoredVar } from '../functions/env-vars.repository.js';
import type { SiteConfig } from './site-config.js';

/** bigint columns arrive as strings; byte counts stay far below 2^53. */
const bigintAsNumber = { to: (value: number) => value, from: (value: string | number) => Number(value) };

export type DeploymentStatus = 'success';

/** An immutable snapshot of an app deployed to an environment. */
@Entity('deployments')
export class Deployment extends AppOwned {
  @Column({ type: 'varchar', length: 32 })
  env: string;

  // Deploys are synchronous today; a build pipeline would add 'pending' / 'failed'.
  @Column({ type: 'varchar', length: 16, default: 'success' })
  status: DeploymentStatus;

  @Column({ type: 'jsonb' })
  snapshot: DeploymentSnapshot;

  /** The app's own files: path → SHA-256 of the content (a blob of the account's), or null for a landing page alone. */
  @Column({ type: 'jsonb', nullable: true })
  files: Record<string, string> | null;

  @Column({ name: 'files_count', type: 'int', default: 0 })
  filesCount: number;

  /** The sum of the files' sizes, path by path (a content at two paths counts twice). */
  @Column({ name: 'files_bytes', type: 'bigint', default: 0, transformer: bigintAsNumber })
  filesBytes: number;

  @Column({ type: 'jsonb', nullable: true })
  config: SiteConfig | null;

  /** With server code: its environment's variables when it was deployed (secrets sealed), else null. */
  @Column({ name: 'function_vars', type: 'jsonb', nullable: true })
  functionVars: StoredVar[] | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
