import { Body, Get, NotFoundException, Param, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PortalAccountPages } from '../portal-account.pages.js';
import { FORM, PortalRedirect, sendPortal, SignedIn } from '../portal-http.js';
import type { Form, Signed } from '../portal-page.js';
import { SignedInPortalRoutes } from './portal-routes.js';
import { PortalPermission } from '../portal-role.guard.js';

/** The account's pages: the overview at /portal/ (and the 404 page of every unknown path), billing, events, service accounts. */
@SignedInPortalRoutes()
export class PortalAccountController {
  constructor(private readonly pages: PortalAccountPages) {}

  @Get('billing')
  @PortalPermission('billing:read')
  async billing(@SignedIn() signed: Signed, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.billingPage(signed));
  }

  @Get('events')
  @PortalPermission('events:read')
  async events(@SignedIn() signed: Signed, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.eventsPage(signed));
  }

  @Get('service-accounts')
  @PortalPermission('keys:write')
  async serviceAccounts(@SignedIn() signed: Signed, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.serviceAccountsPage(signed));
  }

  @Post('service-accounts')
  @PortalPermission('keys:write')
  @RouteConfig(FORM)
  async createServiceAccount(@SignedIn() signed: Signed, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.createServiceAccount(signed, form));
  }

  @Post('service-accounts/:id/revoke')
  @PortalPermission('keys:write')
  @RouteConfig(FORM)
  async revokeServiceAccount(@SignedIn() signed: Signed, @Param('id') id: string, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.revokeServiceAccount(signed, id));
  }

  /** `/portal` without its slash: the overview's address, where relative links resolve. */
  @Get()
  bare(): never {
    throw new PortalRedirect('/portal/');
  }

  /** `/portal/` is the overview (Nest would strip a route's trailing slash: the wildcard takes it); any other unknown path is the 404 page. */
  @Get('*')
  async overview(@SignedIn() signed: Signed, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (new URL(request.url, 'http://portal.invalid').pathname.replace(/^\/portal\/?/, '') !== '') throw new NotFoundException();
    return sendPortal(reply, await this.pages.overview(signed));
  }

  @Post('*')
  @RouteConfig(FORM)
  noSuchAction(): never {
    throw new NotFoundException();
  }
}
