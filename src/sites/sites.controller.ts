import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiMovedPermanentlyResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { Public } from '../common/http/public.decorator.js';
import { SitesService } from './sites.service.js';

@ApiTags('sites')
@Public()
@Controller('sites')
export class SitesController {
  constructor(private readonly sites: SitesService) {}

  // One wildcard route (the /v1 prefix excludes `sites/{*path}`); Nest would strip the trailing slash of named routes.
  // Nest logs a LegacyRouteConverter warning for '*' at start; '{*path}' is refused by Fastify's router here.
  @Get('*')
  @ApiOperation({
    summary: 'A deployed page (no auth, outside /v1)',
    description:
      '`/sites/<deploymentId>/` serves that deployment; `/sites/<appId>/<env>/` serves the newest deployment of the app in ' +
      'that environment. Without the trailing slash: 301 to it. Every value from the app is HTML-escaped.',
  })
  @ApiParam({ name: 'path', type: String, description: '`<deploymentId>/` or `<appId>/<env>/`', example: 'dep_01JC3Z9A7B2C4D6E8F0G1H2J3K/' })
  @ApiOkResponse({
    description: 'The page',
    content: { 'text/html': { schema: { type: 'string' }, example: '<!doctype html>\n<html lang="en">…<h1>Recipe Box</h1>…</html>' } },
  })
  @ApiMovedPermanentlyResponse({ description: 'The same path with a trailing slash', headers: { Location: { schema: { type: 'string' } } } })
  @ApiErrors(404)
  async serve(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const { pathname, search } = new URL(request.url, 'http://site.invalid');
    const site = await this.sites.resolve(pathname, search);
    if (site.kind === 'redirect') {
      await reply.redirect(site.location, 301);
      return;
    }
    await reply.status(200).headers(site.headers).send(site.html);
  }
}
