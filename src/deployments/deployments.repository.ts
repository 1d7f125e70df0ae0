import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { applyKeyset, PageRequest } from '../common/pagination/pagination.js';
import { insertRow } from '../database/insert-row.js';
import { Deployment } from './deployment.entity.js';

/** The deployments table. Rows are only ever inserted (and deleted with their app). */
@Injectable()
export class DeploymentsRepository {
  constructor(@InjectRepository(Deployment) private readonly deployments: Repository<Deployment>) {}

  insert(m: EntityManager, deployment: Pick<Deployment, 'id' | 'accountId' | 'appId' | 'env' | 'snapshot'>): Promise<Deployment> {
    return insertRow(m, Deployment, { ...deployment, status: 'success' });
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
    const qb = this.deployments.createQueryBuilder('deployment').where('deployment.appId = :appId', { appId });
    return applyKeyset(qb, 'deployment', page).getMany();
  }
}
