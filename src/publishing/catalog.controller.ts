import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AppsService } from '../apps/apps.service.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { Public } from '../common/http/public.decorator.js';
import { PageQueryDto } from '../common/pagination/dto/page-query.dto.js';
import { toPageRequest } from '../common/pagination/page.js';
import { CatalogPageDto } from './dto/catalog-entry.dto.js';
import { renderCatalog, SITE_CONTENT_SECURITY_POLICY } from '../sites/site-page.js';

/** The catalogue of published public apps: JSON at /catalog, a page at /catalog/. No auth. */
@ApiTags('sites')
@Public()
@Controller('catalog')
export class CatalogController {
  constructor(private readonly apps: AppsService) {}

  @Get()
  @ApiOperation({
    summary: 'The catalogue of published apps (JSON, no auth)',
    description:
      'Apps that are published and `public`, newest publication first, in the list shape. Unlisted, draft and unpublished apps never appear. `GET /catalog/` is the same as a page.',
  })
  @ApiOkResponse({ type: CatalogPageDto })
  @ApiErrors(400)
  list(@Query() query: PageQueryDto): Promise<CatalogPageDto> {
    return this.apps.catalog(toPageRequest(query));
  }

  // The trailing slash is its own route (Nest strips it from named ones): a wildcard that matches nothing more.
  @Get('*')
  @ApiOperation({ summary: 'The catalogue of published apps (a page)', description: 'The same apps as `GET /catalog`, as HTML.' })
  @ApiOkResponse({ description: 'The page', content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiErrors(400, 404)
  async page(@Query() query: PageQueryDto, @Res() reply: FastifyReply): Promise<void> {
    const page = await this.apps.catalog(toPageRequest(query));
    const html = renderCatalog({ apps: page.data, next: page.nextCursor ? `/catalog/?cursor=${encodeURIComponent(page.nextCursor)}` : null });
    await reply
      .status(200)
      .headers({
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': SITE_CONTENT_SECURITY_POLICY,
        'cache-control': 'public, max-age=0, s-maxage=60',
        'x-content-type-options': 'nosniff',
      })
      .send(html);
  }
}
