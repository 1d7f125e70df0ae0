import { Controller, Get, HttpCode, Options, Req, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../common/http/public.decorator.js';
import { COLLECT_CORS as CORS } from './collect-route.js';
import { TRACKER_SCRIPT } from './tracker-script.js';

const SCRIPT_ETAG = `"${createHash('sha256').update(TRACKER_SCRIPT).digest('base64url').slice(0, 16)}"`;

/** Collection from developers' own sites: the beacon endpoint's preflight and the script that calls it (POST /collect: collect-route.ts). No auth, any origin. */
@ApiTags('analytics')
@Public()
@Controller()
export class CollectController {
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
