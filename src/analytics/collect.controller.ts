import { Body, Controller, Get, HttpCode, Options, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiAcceptedResponse, ApiBody, ApiConsumes, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformRouteConfig } from '../app.setup.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { Public } from '../common/http/public.decorator.js';
import { CollectService } from './collect.service.js';
import { CollectDto } from './dto/collect.dto.js';
import { TRACKER_SCRIPT } from './tracker-script.js';

const TEXT_OR_JSON: PlatformRouteConfig = { acceptsText: true };
const CORS = { 'access-control-allow-origin': '*' };
const SCRIPT_ETAG = `"${createHash('sha256').update(TRACKER_SCRIPT).digest('base64url').slice(0, 16)}"`;

/** Collection from developers' own sites: the beacon endpoint and the script that calls it. No auth, any origin. */
@ApiTags('analytics')
@Public()
@Controller()
export class CollectController {
  constructor(private readonly collector: CollectService) {}

  @Post('collect')
  @HttpCode(202)
  @RouteConfig(TEXT_OR_JSON)
  @ApiConsumes('application/json', 'text/plain')
  @ApiBody({ type: CollectDto, description: 'JSON, sent as application/json or as text/plain (what `navigator.sendBeacon` sends)' })
  @ApiOperation({
    summary: 'Count a pageview or custom event (no auth, CORS *)',
    description:
      'For developers’ own sites (served pages count themselves). Any well-formed body answers 202, also for unknown apps, bots and visitors ' +
      'who sent `Sec-GPC: 1` or `DNT: 1`, and events past 120 a minute from one visitor for one app — those are not counted ' +
      '(see `analytics_events_dropped_total` in /metrics). The IP and User-Agent ' +
      'are used to make a daily visitor id and three labels (browser, OS, device), then dropped; of the URL only the pathname and campaign tags are kept.',
  })
  @ApiAcceptedResponse({ description: 'Taken (counted, or dropped without telling)' })
  @ApiErrors(400, 413, 415)
  async collect(@Req() request: FastifyRequest, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    void reply.headers(CORS);
    await this.collector.collect(body, request.ip, request.headers);
  }

  @Options('collect')
  @HttpCode(204)
  @ApiOperation({ summary: 'CORS preflight of /collect', description: 'Any origin may post JSON to /collect.' })
  @ApiNoContentResponse({ description: 'Allowed' })
  preflight(@Res({ passthrough: true }) reply: FastifyReply): void {
    void reply.headers({ ...CORS, 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'content-type', 'access-control-max-age': '86400' });
  }

  @Get('js/analytics.js')
  @ApiOperation({
    summary: 'The tracker script (under 1 KB, no cookies or storage)',
    description:
      'Add `<script defer data-app="app_…" src="{PUBLIC_URL}/js/analytics.js"></script>` to a page: it sends a pageview on load and on every ' +
      'history-API navigation, and `window.analytics("name", { props })` sends a custom event.',
  })
  @ApiOkResponse({ description: 'The script', content: { 'text/javascript': { schema: { type: 'string' } } } })
  async script(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const headers = { 'cache-control': 'public, max-age=86400', etag: SCRIPT_ETAG, ...CORS };
    if (request.headers['if-none-match'] === SCRIPT_ETAG) return void (await reply.status(304).headers(headers).send());
    await reply
      .status(200)
      .headers({ ...headers, 'content-type': 'text/javascript; charset=utf-8', 'x-content-type-options': 'nosniff' })
      .send(TRACKER_SCRIPT);
  }
}
