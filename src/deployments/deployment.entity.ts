import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { DeploymentSnapshot } from './deployment-snapshot.js';

export type DeploymentStatus = 'success';

/** An immutable snapshot of an app deployed to an environment. */
@Entity('deployments')
export class Deployment {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 40 })
  accountId: string;

  @Column({ name: 'app_id', type: 'varchar', length: 40 })
  appId: string;

  @Column({ type: 'varchar', length: 32 })
  env: string;

  // Deploys are synchronous today; a build pipeline would add 'pending' / 'failed'.
  @Column({ type: 'varchar', length: 16, default: 'success' })
  status: DeploymentStatus;

  @Column({ type: 'jsonb' })
  snapshot: DeploymentSnapshot;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
