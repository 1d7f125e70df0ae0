import { Body, Get, Param, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PortalEditorPages } from '../portal-editor.pages.js';
import { watchClient } from '../../common/http/client-signal.js';
import { FORM, queryOf, sendPortal, SignedIn } from '../portal-http.js';
import type { Form, Signed } from '../portal-page.js';
import { SignedInPortalRoutes } from './portal-routes.js';
import { PortalPermission } from '../portal-role.guard.js';

/**
 * /portal/apps/:appId/editor: the landing-page editor, its preview, save, AI per section and deploy. The
 * contract's address of the editor, `/portal/apps/:appId/landing-page`, serves the same page (its form posts to `/editor`).
 */
@SignedInPortalRoutes()
export class PortalEditorController {
  constructor(private readonly pages: PortalEditorPages) {}

  @Get(['apps/:appId/editor', 'apps/:appId/landing-page'])
  @PortalPermission('apps:read')
  async editor(@SignedIn() signed: Signed, @Param('appId') appId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.editor(signed, appId, queryOf(request, 'done')));
  }

  /** Every button of the editor's form (`_action`); `landing-page` is its older address. */
  @Post(['apps/:appId/editor', 'apps/:appId/landing-page'])
  @PortalPermission('apps:write')
  @RouteConfig(FORM)
  async act(@SignedIn() signed: Signed, @Param('appId') appId: string, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.act(signed, appId, form, watchClient(reply).signal));
  }

  /** The saved page as a deploy would serve it. */
  @Get('apps/:appId/editor/preview')
  @PortalPermission('apps:read')
  async savedPreview(@SignedIn() signed: Signed, @Param('appId') appId: string, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.preview(signed, appId));
  }

  /** The form as typed (unsaved), as a deploy would serve it. */
  @Post('apps/:appId/editor/preview')
  @PortalPermission('apps:read')
  @RouteConfig(FORM)
  async preview(@SignedIn() signed: Signed, @Param('appId') appId: string, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.preview(signed, appId, form));
  }
}
