import { Body, Get, Param, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PortalAccountPages } from '../portal-account.pages.js';
import { FORM, queryOf, sendPortal, SignedIn } from '../portal-http.js';
import type { Form, Signed } from '../portal-page.js';
import { SignedInPortalRoutes } from './portal-routes.js';
import { PortalPermission } from '../portal-role.guard.js';

/** /portal/users: an app's users, their CSV export, erasing one. */
@SignedInPortalRoutes()
export class PortalUsersController {
  constructor(private readonly pages: PortalAccountPages) {}

  @Get('users')
  @PortalPermission('users:read')
  async list(@SignedIn() signed: Signed, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.usersPage(signed, queryOf(request, 'appId')));
  }

  @Get('users.csv')
  @PortalPermission('users:read')
  async csv(@SignedIn() signed: Signed, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const csv = await this.pages.usersCsv(signed, queryOf(request, 'appId') ?? '');
    await reply
      .status(200)
      .headers({ 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="users.csv"', 'cache-control': 'no-store' })
      .send(csv);
  }

  @Post('users/:userId/erase')
  @PortalPermission('users:write')
  @RouteConfig(FORM)
  async erase(@SignedIn() signed: Signed, @Param('userId') userId: string, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.eraseUser(signed, userId, form));
  }
}
