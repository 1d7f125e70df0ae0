import { Body, Get, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FORM, queryOf, sendPortal, SignedIn } from '../portal-http.js';
import type { Form, Signed } from '../portal-page.js';
import { PortalWebhooksPages } from '../portal-webhooks.pages.js';
import { SignedInPortalRoutes } from './portal-routes.js';
import { PortalPermission } from '../portal-role.guard.js';

/** /portal/webhooks…: routed to the webhook pages (PortalWebhooksPages), which take the path after `webhooks`. */
@SignedInPortalRoutes()
export class PortalWebhooksController {
  constructor(private readonly pages: PortalWebhooksPages) {}

  @Get(['webhooks', 'webhooks/*'])
  @PortalPermission('webhooks:read')
  async get(@SignedIn() signed: Signed, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.get(signed, restOf(request), queryOf(request, 'done')));
  }

  @Post(['webhooks', 'webhooks/*'])
  @PortalPermission('webhooks:write')
  @RouteConfig(FORM)
  async post(@SignedIn() signed: Signed, @Req() request: FastifyRequest, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.post(signed, restOf(request), form));
  }
}

/** The path after /portal/webhooks: `''`, or `/<endpointId>…` (without a trailing slash). */
function restOf(request: FastifyRequest): string {
  return new URL(request.url, 'http://portal.invalid').pathname.replace(/^\/portal\/webhooks/, '').replace(/\/$/, '');
}
