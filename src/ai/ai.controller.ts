import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import type { Principal } from '../common/request-context/principal.js';
import { isCalendarDay } from '../common/dates.js';
import { RequestError } from '../common/errors/request-errors.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { watchClient } from '../common/http/client-signal.js';
import { AiRateLimit } from '../rate-limit/rate-limit.decorators.js';
import { AiUsageService } from './ai-usage.service.js';
import { AiService } from './ai.service.js';
import { GenerateDto, GenerationDto, StreamEndDto } from './dto/generate.dto.js';
import { UsageDto, UsageQueryDto } from './dto/usage.dto.js';
import { ResponseNotKept } from '../common/idempotency/idempotent.decorator.js';

const STREAM_EXAMPLE = [
  'data: {"text":"Once upon a time"}',
  'data: {"text":", there was a little app"}',
  'data: {"finishReason":"length","usage":{"promptTokens":5,"completionTokens":8,"totalTokens":13}}',
  'data: [DONE]',
  '',
].join('\n\n');

const MAX_USAGE_DAYS = 366;

@ApiTags('ai')
@Controller('ai')
export class AiController {
  constructor(
    private readonly ai: AiService,
    private readonly usage: AiUsageService,
  ) {}

  @Post('generate')
  @ResponseNotKept('generated text is never stored')
  @HttpCode(200)
  @Scopes('ai:generate')
  @AiRateLimit()
  @ApiOperation({
    summary: 'Generate text',
    description: [
      'Generates text from a prompt with the provider this server is configured for (AI_PROVIDER).',
      'Prompts and outputs are never stored or logged; each call records only its usage (tokens, latency, model, outcome).',
      'Counted in the AI rate limit (RATE_LIMIT_AI_MAX per 60 s).',
      "Under a hard `ai.tokens` quota the generation holds `maxTokens` + the prompt's UTF-8 bytes + 32 tokens while it runs, and 402 answers",
      'when that does not fit beside what is used and held; the usage recorded after is the real count.',
      '',
      'With `"stream": true` the answer is `text/event-stream`: `data: {"text": "…"}` chunks as they are generated, one',
      '`data: {"finishReason", "usage"}`, then `data: [DONE]`. A failure before the first byte is an ordinary error response;',
      'a failure after it is one last `data: {"error": true, "code", "message"}` message, without `[DONE]`.',
      'Closing the connection stops the generation.',
    ].join('\n'),
  })
  @ApiExtraModels(GenerationDto, StreamEndDto)
  @ApiOkResponse({
    description: 'The generated text (JSON), or with `stream: true` a server-sent event stream',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(GenerationDto) } },
      'text/event-stream': {
        schema: {
          type: 'string',
          description: `Server-sent events. Each \`data:\` line is JSON: \`{"text": string}\`, then one \`StreamEndDto\` ({finishReason, usage}), then the literal \`[DONE]\`.`,
        },
        example: STREAM_EXAMPLE,
      },
    },
  })
  @ApiErrors(400, 402, 413, 415, 502, 503, 504)
  async generate(@Body() body: GenerateDto, @CurrentPrincipal() principal: Principal, @Res() reply: FastifyReply): Promise<void> {
    // Closing the connection early stops the work: nobody would read the answer.
    const client = watchClient(reply);

    if (!body.stream) {
      try {
        const result = await this.ai.generate(principal, body, client.signal);
        await reply.status(200).send(result);
      } finally {
        client.dispose();
      }
      return;
    }

    let frames: AsyncIterable<string>;
    try {
      frames = await this.ai.stream(principal, body, client.signal);
    } catch (err) {
      client.dispose();
      throw err;
    }
    await reply
      .status(200)
      .headers({
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        // Tells nginx-style proxies not to hold chunks back.
        'x-accel-buffering': 'no',
      })
      .send(Readable.from(frames));
  }

  @Get('usage')
  @Scopes('analytics:read')
  @ApiOperation({
    summary: 'Daily AI usage of your account',
    description: `Generations and tokens per UTC day, for every credential of the account. At most ${MAX_USAGE_DAYS} days per request. Needs the \`analytics:read\` scope (usage is account-wide reporting, like the analytics endpoints).`,
  })
  @ApiOkResponse({ type: UsageDto })
  @ApiErrors(400)
  async getUsage(@Query() query: UsageQueryDto, @CurrentPrincipal() principal: Principal): Promise<UsageDto> {
    const { from, to } = usageRange(query);
    const data = await this.usage.dailyTotals(principal.accountId, from, to);
    const totals = { requests: 0, failed: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 };
    for (const day of data) for (const key of Object.keys(totals) as Array<keyof typeof totals>) totals[key] += day[key];
    return { from, to, data, totals };
  }
}

/** The range asked for, defaulting to the last 30 UTC days; 400 naming the field when it is not a range. */
function usageRange(query: UsageQueryDto): { from: string; to: string } {
  const day = (value: string) => Date.parse(`${value}T00:00:00Z`);
  const to = query.to ?? new Date().toISOString().slice(0, 10);
  const from = query.from ?? new Date(day(to) - 29 * 86_400_000).toISOString().slice(0, 10);
  const problems: string[] = [];
  if (query.from && !isCalendarDay(from)) problems.push('from must be a date (YYYY-MM-DD, years 0001-9999)');
  if (query.to && !isCalendarDay(to)) problems.push('to must be a date (YYYY-MM-DD, years 0001-9999)');
  if (!problems.length && day(from) > day(to)) problems.push('from must not be after to');
  if (!problems.length && (day(to) - day(from)) / 86_400_000 + 1 > MAX_USAGE_DAYS) problems.push(`from and to must be at most ${MAX_USAGE_DAYS} days apart`);
  if (problems.length) throw RequestError.invalid(problems);
  return { from, to };
}
