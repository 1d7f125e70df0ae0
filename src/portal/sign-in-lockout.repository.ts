import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';

/** The e-mail-wide count's `network`: attempts from networks the e-mail has not signed in from. */
export const ANY_NEW_NETWORK = '';

/**
 * The sign-in lockout's tables: attempts per e-mail hash and client network (and e-mail-wide, under
 * ANY_NEW_NETWORK), and the networks each e-mail hash signed in from.
 */
@Injectable()
export class SignInLockoutRepository {
  constructor(private readonly db: Transactions) {}

  /**
   * Counts a sign-in attempt for the e-mail from the network, unless `max` were counted in the last
   * `windowMs`: answers the attempts in the window, this one included, or null when it is refused.
   * One statement: ON CONFLICT DO UPDATE locks the row and checks its latest version, so concurrent
   * attempts — on any instance — are counted one after another, never past `max`.
   */
  async take(emailHash: string, network: string, windowMs: number, max: number): Promise<number | null> {
    const rows = await this.db.query<{ attempts: number }>(
      `INSERT INTO portal_sign_in_attempts AS a (email_hash, network, attempted_at) VALUES ($1, $2, ARRAY[now()])
       ON CONFLICT (email_hash, network) DO UPDATE
         SET attempted_at = array(SELECT t FROM unnest(a.attempted_at) t WHERE t > now() - ($3::int * interval '1 millisecond') ORDER BY t) || now()
       WHERE (SELECT count(*) FROM unnest(a.attempted_at) t WHERE t > now() - ($3::int * interval '1 millisecond')) < $4
       RETURNING cardinality(attempted_at) AS attempts`,
      [emailHash, network, windowMs, max],
    );
    return rows[0]?.attempts ?? null;
  }

  /** Forgets the attempts of the e-mail from one network (a sign-in there passed). */
  async clear(emailHash: string, network: string): Promise<void> {
    await this.db.query(`DELETE FROM portal_sign_in_attempts WHERE email_hash = $1 AND network = $2`, [emailHash, network]);
  }

  /** Forgets every attempt of the e-mail, from every network and e-mail-wide (its owner proved who they are). */
  async clearAll(emailHash: string): Promise<void> {
    await this.db.query(`DELETE FROM portal_sign_in_attempts WHERE email_hash = $1`, [emailHash]);
  }

  /** Whether the e-mail signed in (or was unlocked) from the network within `withinMs`. */
  async isKnown(emailHash: string, network: string, withinMs: number): Promise<boolean> {
    const rows = await this.db.query(
      `SELECT 1 FROM portal_sign_in_networks WHERE email_hash = $1 AND network = $2 AND signed_in_at > now() - ($3::bigint * interval '1 millisecond')`,
      [emailHash, network, withinMs],
    );
    return rows.length > 0;
  }

  /** The e-mail signed in from the network now; its networks unused for `keepMs` are forgotten at the same time. */
  async remember(emailHash: string, network: string, keepMs: number): Promise<void> {
    await this.db.query(`DELETE FROM portal_sign_in_networks WHERE email_hash = $1 AND signed_in_at <= now() - ($2::bigint * interval '1 millisecond')`, [
      emailHash,
      keepMs,
    ]);
    await this.db.query(
      `INSERT INTO portal_sign_in_networks (email_hash, network) VALUES ($1, $2)
       ON CONFLICT (email_hash, network) DO UPDATE SET signed_in_at = now()`,
      [emailHash, network],
    );
  }
}
