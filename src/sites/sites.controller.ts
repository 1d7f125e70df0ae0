import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiConsumes, ApiMovedPermanentlyResponse, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformRouteConfig } from '../app.setup.js';
import { AnalyticsCollector, Sighting } from '../analytics/analytics-collector.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { Public } from '../common/http/public.decorator.js';
import { SiteHtml, SitePages } from './site-pages.js';
import { SitesError, SitesErrorCode } from './sites.errors.js';
import { SiteResolution, SitesService, SiteTarget } from './sites.service.js';
import { SignupService } from './signup.service.js';
import { underSplitHeaders } from '../publishing/split-assignment.js';
import { signupAnswerOrNotFound } from './signup-answer.js';

const FORM: PlatformRouteConfig = { acceptsForm: true };
const PATH_PARAM = {
  name: 'path',
  type: String,
  description: 'After /sites/: `<deploymentId>/` or `<appId>/<env>/`; after /p/: `<slug>/`. Then nothing (the page), `thanks` or `signup`.',
  example: 'dep_01JC3Z9A7B2C4D6E8F0G1H2J3K/',
};

const OWN_ORIGIN = {
  status: 308,
  description: "A deployment with files of its own: the same path on the site's own origin (`https://<label>.<SITES_DOMAIN>/…`)",
  headers: { Location: { schema: { type: 'string' }, example: 'https://dep-01jc3z9a7b2c4d6e8f0g1h2j3k.example-apps.com/assets/app.js' } },
};

/** The served addresses on the API's origin: deployment urls and aliases under /sites, public addresses under /p (site origins: src/hosting/). */
@ApiTags('sites')
@Public()
@Controller(['sites', 'p'])
export class SitesController {
  constructor(
    private readonly sites: SitesService,
    private readonly pages: SitePages,
    private readonly signups: SignupService,
    private readonly analytics: AnalyticsCollector,
  ) {}

  // One wildcard route per method (the /v1 prefix excludes these paths); Nest would strip the trailing slash of named routes.
  @Get('*')
  @ApiOperation({
    summary: 'A served landing page (no auth, outside /v1)',
    description:
      '`/sites/<deploymentId>/` serves that deployment; `/sites/<appId>/<env>/` the newest deployment of the app in that environment; ' +
      '`/p/<slug>/` (and `https://<slug>.<SITES_DOMAIN>/`) the deployment the app publishes — 410 once unpublished, 404 while a draft, ' +
      '301 from a slug given up in the last 30 days. `…/thanks` is the page after a sign-up. Without the trailing slash: 301 to it. ' +
      'Deployment urls and aliases answer `X-Robots-Tag: noindex`; the public address does not, and may be cached by a CDN for a minute ' +
      '(`Cache-Control: public, max-age=0, s-maxage=60`, `ETag` per deployment; `If-None-Match` → 304). Every value is HTML-escaped; no scripts. ' +
      'A deployment with files of its own is served only on its own origin: any path under its addresses here answers 308 to the same path there.',
  })
  @ApiParam(PATH_PARAM)
  @ApiOkResponse({
    description: 'The page',
    content: {
      'text/html': { schema: { type: 'string' }, example: '<!doctype html>\n<html lang="en">…<h1>Family recipes, finally in one place</h1>…</html>' },
    },
  })
  @ApiMovedPermanentlyResponse({
    description: 'The same path with a trailing slash, or the new address of a renamed slug',
    headers: { Location: { schema: { type: 'string' } } },
  })
  @ApiResponse(OWN_ORIGIN)
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match matched the ETag)' })
  @ApiResponse({ status: 410, description: 'The app was unpublished (an HTML page for browsers)', content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiErrors(404)
  async serve(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.answer(request, reply, async (target) => {
      if (target.action !== 'thanks' && target.action !== 'page') throw SitesError.pageNotFound(); // GET …/signup: the form posts there
      // Every page view counts itself, on the server: no script, nothing to block (bots and opted-out visitors excepted).
      this.analytics.servedPage(this.sighting(request, target));
      return target.action === 'thanks' ? this.pages.thanks(target) : this.pages.page(target);
    });
  }

  @Post('*')
  @RouteConfig(FORM)
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOperation({
    summary: "Sign up through a landing page's form (no auth, no JavaScript needed)",
    description:
      'Posted by the form of a served page to `…/signup` (under any of its addresses), with `email`, `website` (a honeypot that must stay empty) and `token` (signed by the page). ' +
      'A new e-mail becomes a user of the app (`user.created` with `source: "landing-page"` and the deployment) and the answer is 303 to `…/thanks`. ' +
      'The same 303 answers an e-mail already signed up and any spam (honeypot filled; token missing, forged, older than 2 h or younger than 2 s), which store nothing. ' +
      `An invalid e-mail: 400 with the page again and the message next to the field. More than 5 posts a minute from one visitor (salted IP hash, IPv6 by /64) to one app, through any of its addresses: 429 page. ` +
      'A deployment whose page has the form turned off, or of a deleted app: 404.',
  })
  @ApiParam({ ...PATH_PARAM, example: 'dep_01JC3Z9A7B2C4D6E8F0G1H2J3K/signup' })
  @ApiResponse(OWN_ORIGIN)
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
    let afterReply: (() => void) | undefined;
    await this.answer(request, reply, async (target) => {
      if (target.action !== 'signup') throw SitesError.pageNotFound();
      const outcome = await this.signups.submit(target, (request.body ?? {}) as Record<string, unknown>, this.sighting(request, target));
      if (outcome.kind === 'thanks') afterReply = outcome.afterReply;
      return signupAnswerOrNotFound(outcome, target, this.pages);
    });
    // The 303 has gone out (awaiting a Fastify reply waits for it): only now is the user created, so the answer's timing cannot tell a known address.
    afterReply?.();
  }

  /** What analytics may read of a request to a site (it keeps none of it but a daily visitor id and labels). */
  private sighting(request: FastifyRequest, target: SiteTarget): Sighting {
    return {
      appId: target.deployment.appId,
      deploymentId: target.deployment.id,
      ip: request.ip,
      headers: request.headers,
      pathname: target.action === 'page' ? '/' : `/${target.action}`,
      search: new URL(request.url, 'http://site.invalid').search,
      siteHost: request.headers.host,
      referrer: request.headers.referer,
    };
  }

  /** Resolves the address, runs `handle`, and sends its page or 303 (a string is where to go next); errors as pages for browsers. */
  private async answer(request: FastifyRequest, reply: FastifyReply, handle: (target: SiteTarget) => Promise<SiteHtml | string>): Promise<void> {
    const { pathname, search } = new URL(request.url, 'http://site.invalid');
    let resolution: SiteResolution;
    let result: SiteHtml | string;
    let underSplit = false;
    try {
      resolution = await this.sites.resolve(pathname, search, { ip: request.ip, headers: request.headers });
      if (resolution.kind === 'redirect') {
        await reply.redirect(resolution.location, resolution.status);
        return;
      }
      underSplit = resolution.underSplit === true;
      result = await handle(resolution.target);
    } catch (err) {
      // A person with a browser gets a page; a client that asked for JSON gets the envelope (from the filter).
      if (!(err instanceof SitesError) || !request.headers.accept?.includes('text/html')) throw err;
      result =
        err.reason === SitesErrorCode.Unpublished
          ? this.pages.notice(410, { title: 'Taken down', heading: 'This app was taken down', text: 'Its developer unpublished it. It may be back later.' })
          : this.pages.notice(err.status, { title: 'Not found', heading: 'Nothing here', text: 'There is no page at this address, or it was taken down.' });
    }
    if (typeof result === 'string') {
      await reply.redirect(result, 303);
      return;
    }
    if (underSplit) result = { ...result, headers: underSplitHeaders(result.headers) };
    // A cached copy of this very page is still good: 304, no body.
    if (result.status === 200 && result.headers.etag && request.headers['if-none-match'] === result.headers.etag) {
      const { etag, 'cache-control': cacheControl } = result.headers;
      await reply.status(304).headers({ etag, 'cache-control': cacheControl }).send();
      return;
    }
    await reply.status(result.status).headers(result.headers).send(result.html);
  }
}
