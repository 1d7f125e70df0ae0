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

  /** A delivery to each of these succeeded: their deliveries are not failing any more. */
  async markSucceeding(ids: string[]): Promise<void> {
    await this.db.query(`UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ANY($1) AND failing_since IS NOT NULL`, [ids]);
  }

  /** A delivery to each of these failed at the time given: failing since then, unless failing already. */
  async markFailing(failures: Array<{ id: string; at: Date }>): Promise<void> {
    await this.db.query(
      `UPDATE webhook_endpoints w SET failing_since = f.at FROM unnest($1::varchar[], $2::timestamptz[]) AS f(id, at)
        WHERE w.id = f.id AND w.failing_since IS NULL`,
      [failures.map((f) => f.id), failures.map((f) => f.at)],
    );
  }

  /**
   * Disables the Active endpoints among `gone` (they answered 410), and among `failing` those failing
   * for `windowMs` or longer; returns the ones this call disabled (each endpoint once, however many
   * workers try at the same moment: the row lock and `status = 'Active'` decide).
   */
  async disableAutomatically(
    gone: string[],
    failing: string[],
    windowMs: number,
    reasons: { gone: string; failing: string },
  ): Promise<Array<Pick<WebhookEndpoint, 'id' | 'accountId' | 'url'> & { reason: string }>> {
    return this.db.query(
      `UPDATE webhook_endpoints
          SET status = 'Disabled', disabled_reason = CASE WHEN id = ANY($1) THEN $4 ELSE $5 END, updated_at = now()
        WHERE status = 'Active' AND (id = ANY($1) OR (id = ANY($2) AND failing_since <= now() - $3 * interval '1 millisecond'))
        RETURNING id, account_id AS "accountId", url, disabled_reason AS reason`,
      [gone, failing, windowMs, reasons.gone, reasons.failing],
    );
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    const result = await this.endpoints.delete({ accountId, id });
    return (result.affected ?? 0) > 0;
  }
}
