import { Injectable } from '@nestjs/common';
import type { PageRequest } from '../common/pagination/page.js';
import { applyKeyset } from '../database/keyset-pagination.js';
import { Transactions } from '../database/transactions.js';
import { Deployment } from './deployment.entity.js';

/** The deployments table. Rows are only ever inserted (and deleted with their app). */
@Injectable()
export class DeploymentsRepository {
  constructor(private readonly db: Transactions) {}

  private get deployments() {
    return this.db.manager.getRepository(Deployment);
  }

  /** On the deploy path (see bench/): plain SQL, no entity metadata per insert. */
  async insert(deployment: Pick<Deployment, 'id' | 'accountId' | 'appId' | 'env' | 'snapshot'>): Promise<Deployment> {
    const [row] = await this.db.query<{ created_at: Date }>(
      `INSERT INTO deployments (id, account_id, app_id, env, status, snapshot) VALUES ($1, $2, $3, $4, 'success', $5) RETURNING created_at`,
      [deployment.id, deployment.accountId, deployment.appId, deployment.env, JSON.stringify(deployment.snapshot)],
    );
    return { ...deployment, status: 'success', createdAt: row.created_at };
  }

  findOwned(accountId: string, id: string): Promise<Deployment | null> {
    return this.deployments.findOneBy({ accountId, id });
  }

  findById(id: string): Promise<Deployment | null> {
    return this.deployments.findOneBy({ id });
  }

  findNewest(appId: string, env: string): Promise<Deployment | null> {
    return this.deployments.findOne({ where: { appId, env }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  listForApp(appId: string, page: PageRequest): Promise<Deployment[]> {
    return applyKeyset(this.deployments.createQueryBuilder('deployment').where('deployment.appId = :appId', { appId }), 'deployment', page).getMany();
  }
}
