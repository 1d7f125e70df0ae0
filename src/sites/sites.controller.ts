import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiConsumes, ApiMovedPermanentlyResponse, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformRouteConfig } from '../app.setup.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { Public } from '../common/http/public.decorator.js';
import { SiteHtml, SitePages } from './site-pages.js';
import { SitesError } from './sites.errors.js';
import { SiteResolution, SitesService, SiteTarget } from './sites.service.js';
import { SignupService } from './signup.service.js';

const FORM: PlatformRouteConfig = { acceptsForm: true };
const PATH_PARAM = {
  name: 'path',
  type: String,
  description: '`<deploymentId>/` or `<appId>/<env>/`, then nothing (the page), `thanks` or `signup`',
  example: 'dep_01JC3Z9A7B2C4D6E8F0G1H2J3K/',
};

@ApiTags('sites')
@Public()
@Controller('sites')
export class SitesController {
  constructor(
    private readonly sites: SitesService,
    private readonly pages: SitePages,
    private readonly signups: SignupService,
  ) {}

  // One wildcard route per method (the /v1 prefix excludes `sites/{*path}`); Nest would strip the trailing slash of named routes.
  // Nest logs a LegacyRouteConverter warning for '*' at start; '{*path}' is refused by Fastify's router here.
  @Get('*')
  @ApiOperation({
    summary: 'A deployed landing page (no auth, outside /v1)',
    description:
      '`/sites/<deploymentId>/` serves that deployment; `/sites/<appId>/<env>/` serves the newest deployment of the app in that environment; ' +
      '`…/thanks` is the page shown after a sign-up. Without the trailing slash: 301 to it. Every value is HTML-escaped; no scripts (strict CSP).',
  })
  @ApiParam(PATH_PARAM)
  @ApiOkResponse({
    description: 'The page',
    content: {
      'text/html': { schema: { type: 'string' }, example: '<!doctype html>\n<html lang="en">…<h1>Family recipes, finally in one place</h1>…</html>' },
    },
  })
  @ApiMovedPermanentlyResponse({ description: 'The same path with a trailing slash', headers: { Location: { schema: { type: 'string' } } } })
  @ApiErrors(404)
  async serve(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.answer(request, reply, async (target) => {
      if (target.action === 'thanks') return this.pages.thanks(target);
      if (target.action === 'page') return this.pages.page(target);
      throw SitesError.pageNotFound(); // GET …/signup: the form posts there
    });
  }

  @Post('*')
  @RouteConfig(FORM)
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOperation({
    summary: "Sign up through a landing page's form (no auth, no JavaScript needed)",
    description:
      'Posted by the form of a served page to `…/signup`, with `email`, `website` (a honeypot that must stay empty) and `token` (signed by the page). ' +
      'A new e-mail becomes a user of the app (`user.created` with `source: "landing-page"` and the deployment) and the answer is 303 to `…/thanks`. ' +
      'The same 303 answers an e-mail already signed up and any spam (honeypot filled; token missing, forged, older than 24 h or younger than 2 s), which store nothing. ' +
      `An invalid e-mail: 400 with the page again and the message next to the field. More than 5 posts a minute from one visitor to one deployment: 429 page. ` +
      'A deployment whose page has the form turned off, or of a deleted app: 404.',
  })
  @ApiParam({ ...PATH_PARAM, example: 'dep_01JC3Z9A7B2C4D6E8F0G1H2J3K/signup' })
  @ApiResponse({
    status: 303,
    description: 'Signed up (or dropped as spam, or already signed up: the answer does not tell)',
    headers: { Location: { schema: { type: 'string' } } },
  })
  @ApiResponse({
    status: 400,
    description: 'The page again, with the message next to the e-mail field',
    content: { 'text/html': { schema: { type: 'string' } } },
  })
  @ApiResponse({
    status: 429,
    description: 'Too many sign-ups from this visitor; try again in a minute',
    content: { 'text/html': { schema: { type: 'string' } } },
  })
  @ApiErrors(404, 413, 415)
  async signup(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.answer(request, reply, async (target) => {
      if (target.action !== 'signup') throw SitesError.pageNotFound();
      const outcome = await this.signups.submit(target, (request.body ?? {}) as Record<string, unknown>, request.ip);
      switch (outcome.kind) {
        case 'thanks':
          return `${target.basePath}thanks`;
        case 'invalid':
          return this.pages.page(target, { email: outcome.email, error: outcome.error });
        case 'throttled':
          return this.pages.notice(429, {
            title: 'Too many sign-ups',
            heading: 'Slow down a little',
            text: 'Too many sign-ups came from your connection in the last minute. Try again in a minute.',
            back: { href: target.basePath, label: 'Back to the page' },
          });
        case 'not-found':
          throw SitesError.pageNotFound();
      }
    });
  }

  /** Resolves the address, runs `handle`, and sends its page or 303 (a string is where to go next); 404s as pages for browsers. */
  private async answer(request: FastifyRequest, reply: FastifyReply, handle: (target: SiteTarget) => Promise<SiteHtml | string>): Promise<void> {
    const { pathname, search } = new URL(request.url, 'http://site.invalid');
    let resolution: SiteResolution;
    let result: SiteHtml | string;
    try {
      resolution = await this.sites.resolve(pathname, search);
      if (resolution.kind === 'redirect') {
        await reply.redirect(resolution.location, 301);
        return;
      }
      result = await handle(resolution.target);
    } catch (err) {
      // A person with a browser gets a page; a client that asked for JSON gets the envelope (from the filter).
      if (!(err instanceof SitesError) || !request.headers.accept?.includes('text/html')) throw err;
      result = this.pages.notice(err.status, { title: 'Not found', heading: 'Nothing here', text: 'There is no page at this address, or it was taken down.' });
    }
    if (typeof result === 'string') await reply.redirect(result, 303);
    else await reply.status(result.status).headers(result.headers).send(result.html);
  }
}
