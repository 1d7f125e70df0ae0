import { Body, Get, Param, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FORM, queryOf, sendPortal, SignedIn } from '../portal-http.js';
import type { Form, Signed } from '../portal-page.js';
import { PortalPermission } from '../portal-role.guard.js';
import { SignedInPortalRoutes } from '../routes/portal-routes.js';
import { type AuditQuery, PortalTeamPages } from './portal-team.pages.js';

/** /portal/members (list, invite, revoke an invitation, change a role, remove) and /portal/audit-log (filters, pages, CSV export). */
@SignedInPortalRoutes()
export class PortalTeamController {
  constructor(private readonly pages: PortalTeamPages) {}

  @Get('members')
  @PortalPermission('members:read')
  async members(@SignedIn() signed: Signed, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.membersPage(signed, { cursor: queryOf(request, 'cursor') }));
  }

  @Post('members/invitations')
  @PortalPermission('members:write')
  @RouteConfig(FORM)
  async invite(@SignedIn() signed: Signed, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    const page = await this.pages.invite(signed, form);
    // A link not e-mailed is in this answer only: not a redirect, and not cached anywhere.
    if (page.status === 200) void reply.header('cache-control', 'no-store');
    return sendPortal(reply, page);
  }

  @Post('members/invitations/:invitationId/revoke')
  @PortalPermission('members:write')
  @RouteConfig(FORM)
  async revokeInvitation(@SignedIn() signed: Signed, @Param('invitationId') invitationId: string, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.revokeInvitation(signed, invitationId));
  }

  @Post('members/:memberId/role')
  @PortalPermission('members:write')
  @RouteConfig(FORM)
  async changeRole(@SignedIn() signed: Signed, @Param('memberId') memberId: string, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.changeRole(signed, memberId, form));
  }

  @Post('members/:memberId/remove')
  @PortalPermission('members:write')
  @RouteConfig(FORM)
  async remove(@SignedIn() signed: Signed, @Param('memberId') memberId: string, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.remove(signed, memberId));
  }

  @Get('audit-log')
  @PortalPermission('audit:read')
  async auditLog(@SignedIn() signed: Signed, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.auditPage(signed, auditQueryOf(request)));
  }

  /** The filtered entries as a CSV download; a bad filter: the page, saying why. */
  @Get('audit-log.csv')
  @PortalPermission('audit:read')
  async auditCsv(@SignedIn() signed: Signed, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const query = auditQueryOf(request);
    const csv = await this.pages.auditCsv(signed, query);
    if (csv === null) return sendPortal(reply, await this.pages.auditPage(signed, query));
    const day = new Date().toISOString().slice(0, 10);
    await reply
      .status(200)
      .headers({
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="audit-log-${day}.csv"`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      })
      .send(csv);
  }
}

function auditQueryOf(request: FastifyRequest): AuditQuery {
  const field = (name: string) => queryOf(request, name)?.trim().slice(0, 100) || undefined;
  return { action: field('action'), actor: field('actor'), from: field('from'), to: field('to'), cursor: queryOf(request, 'cursor') };
}
