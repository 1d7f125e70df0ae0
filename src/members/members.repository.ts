import { Injectable } from '@nestjs/common';
import type { PageRequest } from '../common/pagination/page.js';
import type { Role } from '../common/request-context/roles.js';
import { applyKeyset } from '../database/keyset-pagination.js';
import { Transactions } from '../database/transactions.js';
import { Member } from './member.entity.js';

export interface Invitation {
  id: string;
  accountId: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  expiresAt: Date;
}

interface InvitationRow {
  id: string;
  account_id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  expires_at: Date;
}

const toInvitation = (r: InvitationRow): Invitation => ({
  id: r.id,
  accountId: r.account_id,
  email: r.email,
  role: r.role,
  invitedBy: r.invited_by,
  expiresAt: r.expires_at,
});

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

  async insertInvitation(invitation: Invitation, tokenHash: string): Promise<void> {
    await this.db.query(
      `INSERT INTO member_invitations (id, account_id, token_hash, email, role, invited_by, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [invitation.id, invitation.accountId, tokenHash, invitation.email, invitation.role, invitation.invitedBy, invitation.expiresAt],
    );
  }

  /** The invitation if it is unused and unexpired; `lock`: locked for the caller's transaction. */
  async openInvitation(tokenHash: string, lock = false): Promise<Invitation | null> {
    const rows = await this.db.query<InvitationRow>(
      `SELECT id, account_id, email, role, invited_by, expires_at FROM member_invitations
        WHERE token_hash = $1 AND accepted_at IS NULL AND expires_at > now()${lock ? ' FOR UPDATE' : ''}`,
      [tokenHash],
    );
    return rows[0] ? toInvitation(rows[0]) : null;
  }

  async acceptInvitation(id: string): Promise<void> {
    await this.db.query(`UPDATE member_invitations SET accepted_at = now() WHERE id = $1`, [id]);
  }
}
