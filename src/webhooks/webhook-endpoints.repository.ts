import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { PageRequest } from '../common/pagination/page.js';
import { applyKeyset } from '../database/keyset-pagination.js';
import { insertRow } from '../database/insert-row.js';
import { Transactions } from '../database/transactions.js';
import { WebhookEndpoint } from './webhook.entities.js';

/** The webhook_endpoints table. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(private readonly db: Transactions) {}

  private get endpoints() {
    return this.db.manager.getRepository(WebhookEndpoint);
  }

  insert(endpoint: Omit<WebhookEndpoint, 'createdAt' | 'updatedAt'>): Promise<WebhookEndpoint> {
    return insertRow(this.db.manager, WebhookEndpoint, endpoint);
  }

  find(accountId: string, id: string): Promise<WebhookEndpoint | null> {
    return this.endpoints.findOneBy({ accountId, id });
  }

  /** FOR UPDATE, in the caller's transaction. */
  findForUpdate(accountId: string, id: string): Promise<WebhookEndpoint | null> {
    return this.endpoints.createQueryBuilder('e').setLock('pessimistic_write').where('e.accountId = :accountId AND e.id = :id', { accountId, id }).getOne();
  }

  list(accountId: string, page: PageRequest): Promise<WebhookEndpoint[]> {
    return applyKeyset(this.endpoints.createQueryBuilder('e').where('e.accountId = :accountId', { accountId }), 'e', page).getMany();
  }

  /** The Active endpoints of these accounts. */
  activeOf(accountIds: string[]): Promise<WebhookEndpoint[]> {
    return this.endpoints.findBy({ accountId: In(accountIds), status: 'Active' });
  }

  save(endpoint: WebhookEndpoint): Promise<WebhookEndpoint> {
    return this.endpoints.save(endpoint);
  }

  /** Endpoints with a signing secret (current or previous) stored in plain by a version that allowed it. */
  withPlainSecrets(): Promise<WebhookEndpoint[]> {
    return this.endpoints.createQueryBuilder('e').where(`e.secret NOT LIKE 'enc:v1:%' OR e.previousSecret NOT LIKE 'enc:v1:%'`).getMany();
  }

  async setSecrets(id: string, secret: string, previousSecret: string | null): Promise<void> {
    await this.endpoints.update({ id }, { secret, previousSecret });
  }

  async disable(id: string): Promise<void> {
    await this.endpoints.update({ id }, { status: 'Disabled' });
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    const result = await this.endpoints.delete({ accountId, id });
    return (result.affected ?? 0) > 0;
  }
}
