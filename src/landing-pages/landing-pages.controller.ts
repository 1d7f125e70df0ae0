import { Body, Controller, Get, HttpCode, Param, Post, Put, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import type { Principal } from '../common/request-context/principal.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { watchClient } from '../common/http/client-signal.js';
import { AiRateLimit } from '../rate-limit/rate-limit.decorators.js';
import { GenerateLandingPageDto, LandingPageDto, LandingPageResponseDto } from './dto/landing-page.dto.js';
import { LandingPagesService } from './landing-pages.service.js';

const APP_ID_PARAM = { name: 'appId', example: 'app_01JC3Z8W5Q4M0B7T2K9X1D6F3H' };

@ApiTags('landing pages')
@Controller('apps/:appId/landing-page')
export class LandingPagesController {
  constructor(private readonly pages: LandingPagesService) {}

  @Get()
  @Scopes('apps:read')
  @ApiOperation({
    summary: "Get an app's landing page",
    description: 'An app that never had one gets a default page built from its name and description (`source: default`).',
  })
  @ApiParam(APP_ID_PARAM)
  @ApiOkResponse({ type: LandingPageResponseDto })
  @ApiErrors(404)
  get(@CurrentPrincipal() principal: Principal, @Param('appId') appId: string): Promise<LandingPageResponseDto> {
    return this.pages.get(principal.accountId, appId);
  }

  @Put()
  @Scopes('apps:write')
  @ApiOperation({
    summary: "Replace an app's landing page",
    description:
      'Saves the page as written (`source: manual`); the next deploy serves it. Every field is plain text: markup stays text and is shown escaped. ' +
      'A field out of range or unknown is a 400 naming it (`hero.headline`, `property hero.subtitle should not exist`). Emits `app.updated` with `changed: ["landingPage"]`.',
  })
  @ApiParam(APP_ID_PARAM)
  @ApiOkResponse({ type: LandingPageResponseDto })
  @ApiErrors(400, 404, 413, 415)
  put(@CurrentPrincipal() principal: Principal, @Param('appId') appId: string, @Body() page: LandingPageDto): Promise<LandingPageResponseDto> {
    return this.pages.put(principal.accountId, appId, page);
  }

  @Post('generate')
  @HttpCode(200)
  @Scopes('apps:write', 'ai:generate')
  @AiRateLimit()
  @ApiOperation({
    summary: 'Have AI write the landing page',
    description:
      "Writes the sections asked for (default: all) with the server's AI provider, field by field, and saves the page (`source: generated`); the other sections keep their content. " +
      "Works with any provider: every field is cleaned of markup, cut to its limit, and falls back to the app's own text when it comes out empty. " +
      'Each field is one metered generation (see `GET /v1/ai/usage`); the route counts once in the AI rate limit. Prompts and outputs are not logged. ' +
      'Under a hard `ai.tokens` quota, 402 before the first field when the quota has no room for them all. ' +
      'No provider configured: 503. Emits `app.updated`.',
  })
  @ApiParam(APP_ID_PARAM)
  // Every field is optional: no body at all (or an empty one, with content-type: application/json) is fine.
  @ApiBody({ type: GenerateLandingPageDto, required: false })
  @ApiOkResponse({ type: LandingPageResponseDto })
  @ApiErrors(400, 402, 404, 413, 415, 502, 503, 504)
  async generate(
    @CurrentPrincipal() principal: Principal,
    @Param('appId') appId: string,
    @Body() body: GenerateLandingPageDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LandingPageResponseDto> {
    const client = watchClient(reply);
    try {
      return await this.pages.generate(principal, appId, body, client.signal);
    } finally {
      client.dispose();
    }
  }
}
