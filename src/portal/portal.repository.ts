import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';
import type { Role } from '../common/request-context/roles.js';

/** Who a portal session is: a member of an account. */
export interface SessionMember {
  accountId: string;
  memberId: string;
  email: string;
  role: Role;
  /** The account requires MFA and this member has not enrolled: every page but enrolment sends them there. */
  mustEnrolMfa: boolean;
  /** The member signed in, or confirmed their password, within the re-authentication window (sudo mode: MFA changes need it). */
  recentlyAuthenticated: boolean;
}

/** The portal's tables: members' passwords, invites and sessions (sign-in attempts: SignInLockoutRepository). Only hashes of tokens, session ids and e-mails. */
@Injectable()
export class PortalRepository {
  constructor(private readonly db: Transactions) {}

  async insertInvite(tokenHash: string, accountId: string, expiresAt: Date): Promise<void> {
    await this.db.query(`INSERT INTO portal_invites (token_hash, account_id, expires_at) VALUES ($1, $2, $3)`, [tokenHash, accountId, expiresAt]);
  }

  /** The invite's account if it is unused and unexpired, locked for the caller's transaction. */
  async openInvite(tokenHash: string): Promise<string | null> {
    const rows = await this.db.query<{ account_id: string }>(
      `SELECT account_id FROM portal_invites WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() FOR UPDATE`,
      [tokenHash],
    );
    return rows[0]?.account_id ?? null;
  }

  /** Ends every invite of the account not used yet (an operator re-issued one). */
  async deleteOpenInvites(accountId: string): Promise<void> {
    await this.db.query(`DELETE FROM portal_invites WHERE account_id = $1 AND used_at IS NULL`, [accountId]);
  }

  async useInvite(tokenHash: string): Promise<void> {
    await this.db.query(`UPDATE portal_invites SET used_at = now() WHERE token_hash = $1`, [tokenHash]);
  }

  /** Sets the member's password (their own: every member signs in with their e-mail and password). */
  async setPassword(accountId: string, memberId: string, hash: string): Promise<void> {
    await this.db.query(
      `INSERT INTO portal_passwords (member_id, account_id, hash) VALUES ($1, $2, $3)
       ON CONFLICT (member_id) DO UPDATE SET hash = EXCLUDED.hash, updated_at = now()`,
      [memberId, accountId, hash],
    );
  }

  /** The member who signs in with this e-mail (lowercase), and their password hash (null: no member, or no password yet). */
  async passwordOf(email: string): Promise<{ accountId: string; memberId: string; hash: string } | null> {
    const rows = await this.db.query<{ account_id: string; member_id: string; hash: string }>(
      `SELECT m.account_id, m.id AS member_id, p.hash FROM members m JOIN portal_passwords p ON p.member_id = m.id WHERE m.email = $1`,
      [email],
    );
    return rows[0] ? { accountId: rows[0].account_id, memberId: rows[0].member_id, hash: rows[0].hash } : null;
  }

  /** The member who signs in with the account's own e-mail (its login: the owner an operator's invite sets the password of). */
  async loginMemberOf(accountId: string): Promise<string | null> {
    const rows = await this.db.query<{ id: string }>(
      `SELECT m.id FROM members m JOIN accounts a ON a.id = m.account_id AND a.email = m.email WHERE a.id = $1`,
      [accountId],
    );
    return rows[0]?.id ?? null;
  }

  /** The member's e-mail and password hash (null: no password set yet). */
  async passwordOfMember(memberId: string): Promise<{ email: string; hash: string } | null> {
    const rows = await this.db.query<{ email: string; hash: string }>(
      `SELECT m.email, p.hash FROM portal_passwords p JOIN members m ON m.id = p.member_id WHERE p.member_id = $1`,
      [memberId],
    );
    return rows[0] ?? null;
  }

  /** A new session, re-authenticated now (a sign-in is one). */
  async insertSession(idHash: string, accountId: string, memberId: string): Promise<void> {
    await this.db.query(`INSERT INTO portal_sessions (id_hash, account_id, member_id) VALUES ($1, $2, $3)`, [idHash, accountId, memberId]);
  }

  /**
   * The session's member if it was used within `idleMs` (marked used now); an idle one is deleted.
   * `recentlyAuthenticated`: re-authenticated (signed in, or the password confirmed) within `reauthMs`, by the database's clock.
   */
  async touchSession(idHash: string, idleMs: number, reauthMs: number): Promise<SessionMember | null> {
    const rows = await this.db.query<{ account_id: string; member_id: string; email: string; role: Role; must_enrol_mfa: boolean; recent: boolean }>(
      `UPDATE portal_sessions s SET last_seen_at = now()
         FROM members m
         LEFT JOIN account_security a ON a.account_id = m.account_id
         LEFT JOIN member_mfa f ON f.member_id = m.id AND f.enrolled_at IS NOT NULL
        WHERE s.id_hash = $1 AND s.last_seen_at > now() - ($2::int * interval '1 millisecond') AND m.id = s.member_id
        RETURNING s.account_id, s.member_id, m.email, m.role, (coalesce(a.mfa_required, false) AND f.member_id IS NULL) AS must_enrol_mfa,
                  s.reauthenticated_at > now() - ($3::int * interval '1 millisecond') AS recent`,
      [idHash, idleMs, reauthMs],
    );
    const row = rows[0];
    if (row) {
      return {
        accountId: row.account_id,
        memberId: row.member_id,
        email: row.email,
        role: row.role,
        mustEnrolMfa: row.must_enrol_mfa,
        recentlyAuthenticated: row.recent,
      };
    }
    await this.deleteSession(idHash); // idle too long: gone for good
    return null;
  }

  /** The member of this session typed their password again: sudo mode starts now. */
  async markReauthenticated(idHash: string): Promise<void> {
    await this.db.query(`UPDATE portal_sessions SET reauthenticated_at = now() WHERE id_hash = $1`, [idHash]);
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.db.query(`DELETE FROM portal_sessions WHERE id_hash = $1`, [idHash]);
  }

  /** Ends every session of the member (never another member's), but the one `keepIdHash` names if given; answers how many ended. */
  async deleteSessionsOf(memberId: string, keepIdHash?: string): Promise<number> {
    const rows = await this.db.query<{ id_hash: string }>(`DELETE FROM portal_sessions WHERE member_id = $1 AND id_hash <> $2 RETURNING id_hash`, [
      memberId,
      keepIdHash ?? '',
    ]);
    return rows.length;
  }

  /** Sessions of the member alive now (used within `idleMs`). */
  async countSessions(memberId: string, idleMs: number): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM portal_sessions WHERE member_id = $1 AND last_seen_at > now() - ($2::int * interval '1 millisecond')`,
      [memberId, idleMs],
    );
    return rows[0].n;
  }
}
