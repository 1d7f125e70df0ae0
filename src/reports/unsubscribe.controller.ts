import { Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiConsumes, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { PlatformRouteConfig } from '../app.setup.js';
import { Public } from '../common/http/public.decorator.js';
import { escapeHtml } from '../mail/mail-html.js';
import { ReportsService } from './reports.service.js';

const TOKEN_PARAM = { name: 'token', example: 'rsub_01JC3ZK4M6N8P0Q2R4S6T8V0WX.q8V1mC0rX4Ue7tYb2NfK9sLwZ3aHjD6pQ2x9Zc7Hq' };
const HTML = { 'text/html': { schema: { type: 'string' } } };
const FORM: PlatformRouteConfig = { acceptsForm: true };

/**
 * The unsubscribe link of a report e-mail. GET only shows a page with a button (mail scanners and
 * link previews follow GET links: they must not unsubscribe anyone); POST — the button, or a mail
 * client's one-click unsubscribe (RFC 8058) — turns the report off. No session: the signed token is the
 * authority, and it names one report of one member.
 */
@ApiTags('analytics')
@Public()
@Controller('reports/unsubscribe')
export class UnsubscribeController {
  constructor(private readonly reports: ReportsService) {}

  @Get(':token')
  @ApiOperation({
    summary: 'The unsubscribe page of a report e-mail',
    description: 'A page with an Unsubscribe button (a form that POSTs here); changes nothing.',
  })
  @ApiParam(TOKEN_PARAM)
  @ApiResponse({ status: 200, description: 'The page with the button', content: HTML })
  @ApiResponse({ status: 404, description: 'A token this server did not sign, or the report is off already (a page)', content: HTML })
  async page(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    const target = await this.reports.unsubscribeTarget(token);
    if (!target) return nothingToUnsubscribe(reply);
    const what = `the ${target.kind} report of ${escapeHtml(target.appName)}`;
    await send(
      reply,
      200,
      'Unsubscribe',
      `<p>Stop receiving ${what}?</p><form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
    );
  }

  @Post(':token')
  @HttpCode(200)
  @RouteConfig(FORM)
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOperation({
    summary: 'Unsubscribe from a report e-mail (one click)',
    description: 'RFC 8058: a mail client posts `List-Unsubscribe=One-Click` (the body is not required). Turns that one report off; the link then answers 404.',
  })
  @ApiParam(TOKEN_PARAM)
  @ApiResponse({ status: 200, description: 'Unsubscribed (a page)', content: HTML })
  @ApiResponse({ status: 404, description: 'A token this server did not sign, or the report is off already (a page)', content: HTML })
  @ApiResponse({ status: 415, description: 'A body that is not a form' })
  async unsubscribe(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    if (!(await this.reports.unsubscribe(token))) return nothingToUnsubscribe(reply);
    await send(reply, 200, 'Unsubscribed', '<p>You will not receive this report any more. You can turn it on again on the app’s analytics page.</p>');
  }
}

/** The page of a token this server did not sign, or of a report that is off already (both routes answer it alike). */
function nothingToUnsubscribe(reply: FastifyReply): Promise<void> {
  return send(reply, 404, 'Nothing to unsubscribe from', '<p>This report is off already, or the link is not valid.</p>');
}

/** A small page of its own: no script, nothing loaded, not indexed, no referrer carrying the token. */
async function send(reply: FastifyReply, status: number, title: string, body: string): Promise<void> {
  await reply
    .status(status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-robots-tag': 'noindex',
      'referrer-policy': 'no-referrer',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    })
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head>` +
        `<body style="font-family:sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem"><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
    );
}
