import { Injectable } from '@nestjs/common';
import type { PageRequest } from '../common/pagination/page.js';
import { applyKeyset } from '../database/keyset-pagination.js';
import { Transactions } from '../database/transactions.js';
import { Deployment } from './deployment.entity.js';

/** Every column but the files map (up to 20,000 entries): what the API shows of a deployment. */
const SHOWN: Array<Exclude<keyof Deployment, 'files'>> = [
  'id',
  'accountId',
  'appId',
  'env',
  'status',
  'snapshot',
  'filesCount',
  'filesBytes',
  'config',
  'functionVars',
  'createdAt',
];

/** The deployments table. Rows are only ever inserted (and deleted with their app). */
@Injectable()
export class DeploymentsRepository {
  constructor(private readonly db: Transactions) {}

  private get deployments() {
    return this.db.manager.getRepository(Deployment);
  }

  /** On the deploy path (docs/decisions/2026-11-25-deploy-in-two-round-trips.md): plain SQL, queued to go out with the deploy's next statements (its COMMIT). */
  insert(
    deployment: Pick<Deployment, 'id' | 'accountId' | 'appId' | 'env' | 'snapshot'> &
      Partial<Pick<Deployment, 'files' | 'filesCount' | 'filesBytes' | 'config' | 'functionVars'>>,
  ): Deployment {
    const row: Deployment = {
      files: null,
      filesCount: 0,
      filesBytes: 0,
      config: null,
      functionVars: null,
      ...deployment,
      status: 'success',
      createdAt: new Date(),
    };
    this.db.queueWrite(
      `INSERT INTO deployments (id, account_id, app_id, env, status, snapshot, created_at, files, files_count, files_bytes, config, function_vars) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        row.id,
        row.accountId,
        row.appId,
        row.env,
        row.status,
        JSON.stringify(row.snapshot),
        row.createdAt,
        row.files === null ? null : JSON.stringify(row.files),
        row.filesCount,
        row.filesBytes,
        row.config === null ? null : JSON.stringify(row.config),
        row.functionVars === null ? null : JSON.stringify(row.functionVars),
      ],
    );
    return row;
  }

  /** Without its files map (`files` is null). */
  async findOwned(accountId: string, id: string): Promise<Deployment | null> {
    const found = await this.deployments.findOne({ where: { accountId, id }, select: Object.fromEntries(SHOWN.map((c) => [c, true])) });
    return found && { ...found, files: null };
  }

  findById(id: string): Promise<Deployment | null> {
    return this.deployments.findOneBy({ id });
  }

  findNewest(appId: string, env: string): Promise<Deployment | null> {
    return this.deployments.findOne({ where: { appId, env }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** Without their files maps (`files` is null). */
  async listForApp(appId: string, page: PageRequest): Promise<Deployment[]> {
    const query = this.deployments
      .createQueryBuilder('deployment')
      .select(SHOWN.map((column) => `deployment.${column}`))
      .where('deployment.appId = :appId', { appId });
    return (await applyKeyset(query, 'deployment', page).getMany()).map((d) => ({ ...d, files: null }));
  }
}
