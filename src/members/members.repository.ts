import { Injectable } from '@nestjs/common';
import type { PageRequest } from '../common/pagination/page.js';
import type { Role } from '../common/request-context/roles.js';
import { applyKeyset } from '../database/keyset-pagination.js';
import { Transactions } from '../database/transactions.js';
import { MemberInvitation } from './member-invitation.entity.js';
import { Member } from './member.entity.js';

export interface Invitation {
  id: string;
  accountId: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  expiresAt: Date;
}

/** An open invitation and the current role of the member who sent it (null: no member sent it, or they were removed). */
export interface OpenInvitation extends Invitation {
  senderRole: Role | null;
}

interface InvitationRow {
  id: string;
  account_id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  expires_at: Date;
  sender_role: Role | null;
}

const toInvitation = (r: InvitationRow): OpenInvitation => ({
  id: r.id,
  accountId: r.account_id,
  email: r.email,
  role: r.role,
  invitedBy: r.invited_by,
  expiresAt: r.expires_at,
  senderRole: r.sender_role,
});

/** Pending: neither accepted nor revoked, and not expired. */
const PENDING = `accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()`;

/** The members and member_invitations tables (invitation tokens stored as SHA-256 hashes only). */
@Injectable()
export class MembersRepository {
  constructor(private readonly db: Transactions) {}

  private get members() {
    return this.db.manager.getRepository(Member);
  }

  list(accountId: string, page: PageRequest): Promise<Member[]> {
    const qb = this.members.createQueryBuilder('m').where('m.accountId = :accountId', { accountId });
    return applyKeyset(qb, 'm', page).getMany();
  }

  find(accountId: string, id: string): Promise<Member | null> {
    return this.members.findOneBy({ accountId, id });
  }

  async emailTaken(email: string): Promise<boolean> {
    return (await this.members.countBy({ email })) > 0;
  }

  async insert(member: Pick<Member, 'id' | 'accountId' | 'email' | 'role'>): Promise<Member> {
    const rows = await this.db.query<{ created_at: Date }>(`INSERT INTO members (id, account_id, email, role) VALUES ($1, $2, $3, $4) RETURNING created_at`, [
      member.id,
      member.accountId,
      member.email,
      member.role,
    ]);
    return { ...member, createdAt: rows[0].created_at, updatedAt: rows[0].created_at };
  }

  /** The account's owners' ids, locked for the caller's transaction: two demotions at once cannot leave it without one. */
  async lockOwners(accountId: string): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(`SELECT id FROM members WHERE account_id = $1 AND role = 'owner' ORDER BY id FOR UPDATE`, [accountId]);
    return rows.map((r) => r.id);
  }

  async setRole(id: string, role: Role): Promise<void> {
    await this.db.query(`UPDATE members SET role = $2, updated_at = now() WHERE id = $1`, [id, role]);
  }

  async delete(id: string): Promise<void> {
    await this.db.query(`DELETE FROM members WHERE id = $1`, [id]);
  }

  /** The member's row locked for the caller's transaction (before their invitations: every writer locks in that order). */
  async lockForUpdate(accountId: string, id: string): Promise<Member | null> {
    return this.members.createQueryBuilder('m').where('m.accountId = :accountId AND m.id = :id', { accountId, id }).setLock('pessimistic_write').getOne();
  }

  /** Holds the member's role for the caller's transaction (a demotion or removal waits for it): an invitation they sent is being accepted. */
  async holdRole(id: string): Promise<void> {
    await this.db.query(`SELECT 1 FROM members WHERE id = $1 FOR SHARE`, [id]);
  }

  async insertInvitation(invitation: Invitation, tokenHash: string, mailed: boolean): Promise<void> {
    await this.db.query(
      `INSERT INTO member_invitations (id, account_id, token_hash, email, role, invited_by, expires_at, mailed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $8::boolean THEN now() END)`,
      [invitation.id, invitation.accountId, tokenHash, invitation.email, invitation.role, invitation.invitedBy, invitation.expiresAt, mailed],
    );
  }

  /**
   * The times of the invitation e-mails sent to `email` within the last `windowMs` (any account's), newest
   * first, at most `limit`, each with the seconds until it leaves the window — after holding the
   * address's lock for the caller's transaction, so that invitations to it at once are counted one
   * after the other.
   */
  async lockMailedTo(email: string, windowMs: number, limit: number): Promise<Array<{ secondsLeft: number }>> {
    await this.db.query(`SELECT pg_advisory_xact_lock(hashtextextended('invitation-mail:' || $1, 0))`, [email]);
    const rows = await this.db.query<{ seconds_left: number }>(
      `SELECT ceil(extract(epoch FROM mailed_at + ($2::int * interval '1 millisecond') - now()))::int AS seconds_left
         FROM member_invitations WHERE email = $1 AND mailed_at > now() - ($2::int * interval '1 millisecond')
        ORDER BY mailed_at DESC LIMIT $3`,
      [email, windowMs, limit],
    );
    return rows.map((r) => ({ secondsLeft: r.seconds_left }));
  }

  /** The invitation if it is pending, with its sender's current role; `lock`: locked for the caller's transaction. */
  async openInvitation(tokenHash: string, lock = false): Promise<OpenInvitation | null> {
    const rows = await this.db.query<InvitationRow>(
      `SELECT i.id, i.account_id, i.email, i.role, i.invited_by, i.expires_at, s.role AS sender_role
         FROM member_invitations i LEFT JOIN members s ON s.id = i.invited_by
        WHERE i.token_hash = $1 AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()${lock ? ' FOR UPDATE OF i' : ''}`,
      [tokenHash],
    );
    return rows[0] ? toInvitation(rows[0]) : null;
  }

  async acceptInvitation(id: string): Promise<void> {
    await this.db.query(`UPDATE member_invitations SET accepted_at = now() WHERE id = $1`, [id]);
  }

  /** The account's pending invitations, newest first. */
  pendingInvitations(accountId: string, page: PageRequest): Promise<MemberInvitation[]> {
    const qb = this.db.manager
      .getRepository(MemberInvitation)
      .createQueryBuilder('i')
      .where('i.accountId = :accountId AND i.acceptedAt IS NULL AND i.revokedAt IS NULL AND i.expiresAt > now()', { accountId });
    return applyKeyset(qb, 'i', page).getMany();
  }

  /** Revokes the account's pending invitation; false when there was none. */
  async revokeInvitation(accountId: string, id: string): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      `UPDATE member_invitations SET revoked_at = now() WHERE id = $1 AND account_id = $2 AND ${PENDING} RETURNING id`,
      [id, accountId],
    );
    return rows.length > 0;
  }

  /** Revokes the pending invitations a member sent that grant a role other than `keep` (all of them when `keep` is empty); answers their ids. */
  async revokeInvitationsSentBy(memberId: string, keep: readonly Role[] = []): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `UPDATE member_invitations SET revoked_at = now() WHERE invited_by = $1 AND ${PENDING} AND NOT (role = ANY($2::varchar[])) RETURNING id`,
      [memberId, keep],
    );
    return rows.map((r) => r.id);
  }
}
