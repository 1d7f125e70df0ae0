import { Column, PrimaryColumn } from 'typeorm';

/**
 * The first columns of a row that belongs to an account's app (deployments, custom domains, an app's
 * users): its id, the account and the app. Each entity extending it is still a table of its own.
 */
export abstract class AppOwned {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 40 })
  accountId: string;

  @Column({ name: 'app_id', type: 'varchar', length: 40 })
  appId: string;
}
