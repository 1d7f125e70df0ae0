import { Injectable } from '@nestjs/common';
import type { PageRequest } from '../common/pagination/page.js';
import { insertRow } from '../database/insert-row.js';
import { applyKeyset } from '../database/keyset-pagination.js';
import { Transactions } from '../database/transactions.js';
import { Domain } from './domain.entity.js';

/** The domains table. */
@Injectable()
export class DomainsRepository {
  constructor(private readonly db: Transactions) {}

  private get domains() {
    return this.db.manager.getRepository(Domain);
  }

  insert(domain: Omit<Domain, 'createdAt' | 'updatedAt'> & { createdAt: Date }): Promise<Domain> {
    return insertRow(this.db.manager, Domain, domain);
  }

  find(accountId: string, id: string): Promise<Domain | null> {
    return this.domains.findOneBy({ accountId, id });
  }

  /** Any account's (the worker checks them all). */
  findById(id: string): Promise<Domain | null> {
    return this.domains.findOneBy({ id });
  }

  /** FOR UPDATE, in the caller's transaction (any account's). */
  findForUpdate(id: string): Promise<Domain | null> {
    return this.domains.createQueryBuilder('d').setLock('pessimistic_write').where('d.id = :id', { id }).getOne();
  }

  listForApp(appId: string, page: PageRequest): Promise<Domain[]> {
    return applyKeyset(this.domains.createQueryBuilder('d').where('d.appId = :appId', { appId }), 'd', page).getMany();
  }

  allOfApp(appId: string): Promise<Domain[]> {
    return this.domains.findBy({ appId });
  }

  async countForApp(appId: string): Promise<number> {
    return this.domains.countBy({ appId });
  }

  /** The account that verified this hostname, other than through the domain `exceptId`, if any. */
  async verifiedOwner(hostname: string, exceptId = ''): Promise<string | undefined> {
    const [row] = await this.db.query<{ account_id: string }>(`SELECT account_id FROM domains WHERE hostname = $1 AND status = 'verified' AND id <> $2`, [
      hostname,
      exceptId,
    ]);
    return row?.account_id;
  }

  /** Whether this hostname is verified (by anyone). */
  async isVerified(hostname: string): Promise<boolean> {
    return (await this.verifiedOwner(hostname)) !== undefined;
  }

  /** The app each verified hostname serves (hostname → app id). */
  async verifiedHosts(): Promise<Array<{ hostname: string; appId: string }>> {
    const rows = await this.db.query<{ hostname: string; app_id: string }>(`SELECT hostname, app_id FROM domains WHERE status = 'verified'`);
    return rows.map((r) => ({ hostname: r.hostname, appId: r.app_id }));
  }

  /** The app a verified hostname serves, if it is verified. */
  async appOfVerified(hostname: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ app_id: string }>(`SELECT app_id FROM domains WHERE hostname = $1 AND status = 'verified'`, [hostname]);
    return row?.app_id;
  }

  /**
   * In the caller's transaction: serializes the verifications of one hostname (whoever verifies it
   * first owns it; the unique index is the backstop), until the transaction ends.
   */
  async lockHostname(hostname: string): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(hashtext('domain:' || $1))`, [hostname]);
  }

  /**
   * Claims up to `limit` pending or verified domains whose check is due, for `leaseMs`: their `next_check_at`
   * moves past the lease, so another worker (SKIP LOCKED) or the next round skips them while this one
   * checks; the check then sets the real next time. Answers their ids.
   */
  async claimDue(limit: number, leaseMs: number): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `UPDATE domains SET next_check_at = now() + make_interval(secs => $2::int / 1000.0)
        WHERE id IN (SELECT id FROM domains WHERE status IN ('pending', 'verified') AND next_check_at <= now()
                      ORDER BY next_check_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [limit, leaseMs],
    );
    return rows.map((r) => r.id);
  }

  save(domain: Domain): Promise<Domain> {
    return this.domains.save(domain);
  }

  async delete(id: string): Promise<void> {
    await this.domains.delete({ id });
  }
}
