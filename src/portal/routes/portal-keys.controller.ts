import { Body, Get, Param, Post, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { PortalKeysPages } from '../portal-keys.pages.js';
import { FORM, sendPortal, SignedIn } from '../portal-http.js';
import type { Form, Signed } from '../portal-page.js';
import { SignedInPortalRoutes } from './portal-routes.js';
import { PortalPermission } from '../portal-role.guard.js';

/** /portal/api-keys: the account's keys, a new key shown once, revoking. */
@SignedInPortalRoutes()
export class PortalKeysController {
  constructor(private readonly pages: PortalKeysPages) {}

  @Get('api-keys')
  @PortalPermission('keys:own')
  async list(@SignedIn() signed: Signed, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.list(signed));
  }

  @Post('api-keys')
  @PortalPermission('keys:own')
  @RouteConfig(FORM)
  async create(@SignedIn() signed: Signed, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    const page = await this.pages.create(signed, form);
    // A new key is in this answer only: not a redirect, and not cached anywhere.
    if (page.status === 200) void reply.header('cache-control', 'no-store');
    return sendPortal(reply, page);
  }

  @Post('api-keys/:keyId/revoke')
  @PortalPermission('keys:own')
  @RouteConfig(FORM)
  async revoke(@SignedIn() signed: Signed, @Param('keyId') keyId: string, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.revoke(signed, keyId));
  }
}
