import { Injectable } from '@nestjs/common';
import { AUDIT_ACTION_NAMES } from '../../audit/audit-actions.js';
import type { AuditFilter } from '../../audit/audit-log.repository.js';
import { AuditLog } from '../../audit/audit-log.service.js';
import { ListAuditLogQueryDto } from '../../audit/dto/audit-entry.dto.js';
import { type Page, toPageRequest } from '../../common/pagination/page.js';
import { ROLES, roleAllows } from '../../common/request-context/roles.js';
import { ChangeRoleDto, CreateInvitationDto, type MemberDto, type PendingInvitationDto } from '../../members/dto/member.dto.js';
import { MembersService } from '../../members/members.service.js';
import { csvLines } from '../../common/csv.js';
import { type FieldErrors, validateForm } from '../portal-forms.js';
import { chrome, type Form, ignoreNotFound, type PortalAnswer, portalActor, portalPrincipal, type Signed } from '../portal-page.js';
import { type PortalHtml, renderPortal } from '../portal-pages.js';

/** The most entries one CSV export holds (newest first): beyond, narrow the filters. */
export const AUDIT_EXPORT_MAX = 10_000;
const DAY_MS = 86_400_000;

export interface AuditQuery {
  action?: string;
  actor?: string;
  from?: string;
  to?: string;
  cursor?: string;
}

/**
 * /portal/members (members and pending invitations) and /portal/audit-log: the same services and
 * DTOs as /v1/members and /v1/audit-log. Owner-only rules (making, demoting, removing an owner; the last owner) are
 * MembersService's; a refusal is a page saying why.
 */
@Injectable()
export class PortalTeamPages {
  constructor(
    private readonly members: MembersService,
    private readonly audit: AuditLog,
  ) {}

  async membersPage(
    signed: Signed,
    notes: { invited?: { email: string; emailed: boolean; url: string | null }; errors?: FieldErrors; input?: Form; cursor?: string } = {},
    status = 200,
  ): Promise<PortalHtml> {
    const [page, invitations]: [Page<MemberDto>, Page<PendingInvitationDto>] = await Promise.all([
      this.members.list(signed.accountId, toPageRequest({ limit: 100, cursor: notes.cursor })),
      this.members.pendingInvitations(signed.accountId, toPageRequest({ limit: 100 })),
    ]);
    const mayWrite = roleAllows(signed.role, 'members:write');
    // Only an owner makes an owner: the others are not offered it.
    const roles = ROLES.filter((r) => r !== 'owner' || roleAllows(signed.role, 'owners:manage'));
    const data = {
      ...chrome(signed),
      me: signed.memberId,
      members: page.data,
      next: page.nextCursor,
      invitations: invitations.data,
      mayWrite,
      roles,
      ...notes,
    };
    return renderPortal('members', data, status);
  }

  async invite(signed: Signed, form: Form): Promise<PortalHtml> {
    const checked = await validateForm(CreateInvitationDto, { email: trimmed(form.email), role: form.role });
    if (!checked.ok) return this.membersPage(signed, { errors: checked.errors, input: form }, 400);
    const invitation = await this.members.invite(portalPrincipal(signed), portalActor(signed), checked.value.email, checked.value.role);
    return this.membersPage(signed, { invited: { email: invitation.email, emailed: invitation.emailed, url: invitation.invitationUrl } });
  }

  /** Revokes a pending invitation (one revoked or used meanwhile: nothing to do). */
  async revokeInvitation(signed: Signed, invitationId: string): Promise<PortalAnswer> {
    await this.members.revokeInvitation(signed.accountId, portalActor(signed), invitationId).catch(ignoreNotFound);
    return { redirect: '/portal/members' };
  }

  async changeRole(signed: Signed, memberId: string, form: Form): Promise<PortalAnswer> {
    const checked = await validateForm(ChangeRoleDto, { role: form.role });
    if (!checked.ok) return this.membersPage(signed, { errors: checked.errors }, 400);
    await this.members.changeRole(portalPrincipal(signed), portalActor(signed), memberId, checked.value.role);
    return { redirect: '/portal/members' };
  }

  async remove(signed: Signed, memberId: string): Promise<PortalAnswer> {
    await this.members.remove(portalPrincipal(signed), portalActor(signed), memberId);
    // Removing oneself ends one's own session: the sign-in page is next.
    return { redirect: memberId === signed.memberId ? '/portal/login' : '/portal/members' };
  }

  /** The audit log, filtered as the API filters it (a bad filter: the page says why, 400), 50 entries a page. */
  async auditPage(signed: Signed, query: AuditQuery): Promise<PortalHtml> {
    const filter = await this.auditFilter(query);
    const data = { ...chrome(signed), actions: AUDIT_ACTION_NAMES, query, exportQuery: searchOf(query, false) };
    if (!filter.ok) return renderPortal('audit-log', { ...data, entries: [], errors: filter.errors }, 400);
    const page = await this.audit.list(signed.accountId, filter.value, toPageRequest({ limit: 50, cursor: query.cursor }));
    const next = page.nextCursor ? searchOf({ ...query, cursor: page.nextCursor }, true) : null;
    return renderPortal('audit-log', { ...data, entries: page.data, next, errors: {} });
  }

  /** The filtered entries as CSV (newest first, at most AUDIT_EXPORT_MAX), or null for a bad filter. */
  async auditCsv(signed: Signed, query: AuditQuery): Promise<string | null> {
    const filter = await this.auditFilter(query);
    if (!filter.ok) return null;
    const rows = [['id', 'at', 'actor_type', 'actor_id', 'actor_label', 'action', 'target_type', 'target_id', 'ip']];
    let cursor: string | undefined;
    do {
      const page = await this.audit.list(signed.accountId, filter.value, toPageRequest({ limit: 100, cursor }));
      for (const e of page.data) rows.push([e.id, e.at, e.actor.type, e.actor.id, e.actor.label, e.action, e.target.type, e.target.id, e.ip ?? '']);
      cursor = page.nextCursor ?? undefined;
    } while (cursor && rows.length <= AUDIT_EXPORT_MAX);
    return csvLines(rows.slice(0, AUDIT_EXPORT_MAX + 1));
  }

  /**
   * The API's filters, checked by its DTO. A day alone (the page's date fields) means that whole
   * day, UTC: `from` its start, `to` the end of it.
   */
  private async auditFilter(query: AuditQuery): Promise<{ ok: true; value: AuditFilter } | { ok: false; errors: FieldErrors }> {
    const plain = Object.fromEntries(Object.entries({ action: query.action, actor: query.actor, from: query.from, to: query.to }).filter(([, v]) => v));
    const checked = await validateForm(ListAuditLogQueryDto, plain);
    if (!checked.ok) return checked;
    const { action, actor, from, to } = checked.value;
    const dayOnly = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
    return {
      ok: true,
      value: {
        action,
        actor,
        from: from ? new Date(dayOnly(from) ? `${from}T00:00:00Z` : from) : undefined,
        to: to ? new Date(dayOnly(to) ? Date.parse(`${to}T00:00:00Z`) + DAY_MS : to) : undefined,
      },
    };
  }
}

function trimmed(value: Form[string]): string | undefined {
  return typeof value === 'string' ? value.trim() : undefined;
}

/** The query string of the filters set (and the cursor, if `withCursor`), `?` first, or ''. */
function searchOf(query: AuditQuery, withCursor: boolean): string {
  const params = new URLSearchParams();
  const names: Array<keyof AuditQuery> = ['action', 'actor', 'from', 'to', ...(withCursor ? (['cursor'] as const) : [])];
  for (const name of names) if (query[name]) params.set(name, query[name]);
  const search = params.toString();
  return search ? `?${search}` : '';
}
