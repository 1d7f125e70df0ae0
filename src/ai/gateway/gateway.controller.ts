import { Body, Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { ApiErrors } from '../../common/http/api-errors.decorator.js';
import { watchClient } from '../../common/http/client-signal.js';
import { ResponseNotKept } from '../../common/idempotency/idempotent.decorator.js';
import type { Principal } from '../../common/request-context/principal.js';
import { CurrentPrincipal, Scopes } from '../../common/request-context/request-context.decorators.js';
import { AiRateLimit } from '../../rate-limit/rate-limit.decorators.js';
import { AiCalls } from '../ai-calls.js';
import { ChatCompletions } from './chat-completions.service.js';
import { ChatCompletionDto, ChatCompletionRequestDto } from './dto/chat-completion.dto.js';
import { EmbeddingsDto, EmbeddingsRequestDto } from './dto/embeddings.dto.js';
import { ModelListDto } from './dto/models.dto.js';
import { Embeddings } from './embeddings.service.js';

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  // Tells nginx-style proxies not to hold chunks back.
  'x-accel-buffering': 'no',
};

const STREAM_EXAMPLE = [
  'data: {"id":"chatcmpl-01JC3Z8W5Q4M0B7T2K9X1D6F3H","object":"chat.completion.chunk","created":1795342530,"model":"fast","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}',
  'data: {"id":"chatcmpl-01JC3Z8W5Q4M0B7T2K9X1D6F3H","object":"chat.completion.chunk","created":1795342530,"model":"fast","choices":[{"index":0,"delta":{"content":"Every recipe"},"finish_reason":null}]}',
  'data: {"id":"chatcmpl-01JC3Z8W5Q4M0B7T2K9X1D6F3H","object":"chat.completion.chunk","created":1795342530,"model":"fast","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
  'data: {"id":"chatcmpl-01JC3Z8W5Q4M0B7T2K9X1D6F3H","object":"chat.completion.chunk","created":1795342530,"model":"fast","choices":[],"usage":{"prompt_tokens":24,"completion_tokens":3,"total_tokens":27}}',
  'data: [DONE]',
  '',
].join('\n\n');

const PRIVACY =
  'Prompts and answers are never stored, logged or cached; each call records only its usage (tokens, latency, model, outcome). With AI_REDACT_PII=true, e-mail addresses and phone numbers are masked before text leaves for a remote provider.';
const METERING =
  "Scope `ai:generate`; counted in the AI rate limit (the plan's `aiRequestsPerMinute`), on the `ai.tokens` meter and its quota (402), and in the credential's AI budget (429 `ai_budget_exhausted`). The most tokens a call may use are held while it runs.";

/**
 * OpenAI's API on the platform's keys (`baseURL: <PUBLIC_URL>/v1`): `POST /v1/chat/completions`,
 * `GET /v1/models`, `POST /v1/embeddings`, in OpenAI's request and response shapes, with errors in
 * the platform's envelope at the statuses OpenAI's clients map to their exception classes.
 */
@ApiTags('ai')
@Controller()
export class GatewayController {
  constructor(
    private readonly chat: ChatCompletions,
    private readonly embeddings: Embeddings,
    private readonly calls: AiCalls,
  ) {}

  @Post('chat/completions')
  @ResponseNotKept('AI output is never stored')
  @HttpCode(200)
  @Scopes('ai:generate')
  @AiRateLimit()
  @ApiOperation({
    summary: 'Chat completion (OpenAI-compatible)',
    description: [
      "OpenAI's Chat Completions API: point any OpenAI client at `<PUBLIC_URL>/v1` with an API key of this platform.",
      '`model` is one of `GET /v1/models`; its targets are tried in order, the next on a 429, a 5xx, a timeout or a refused connection before any output.',
      'Fields a local model cannot honour (`tools`, `n` > 1, image parts…) answer 400 naming them; an OpenAI-compatible upstream gets them as sent.',
      PRIVACY,
      METERING,
      '',
      'With `"stream": true` the answer is `text/event-stream`: `chat.completion.chunk` objects, with `stream_options.include_usage` a last chunk with',
      '`usage` and no `choices`, then `data: [DONE]`. A failure before the first token is an ordinary error response; a failure after it is one',
      '`data: {"error": {"message", "type", "code"}}` message (what OpenAI\'s clients raise as an APIError), without `[DONE]`. Closing the connection stops the generation.',
    ].join('\n'),
  })
  @ApiExtraModels(ChatCompletionDto)
  @ApiOkResponse({
    description: 'The completion (JSON), or with `stream: true` a server-sent event stream of chunks',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(ChatCompletionDto) } },
      'text/event-stream': {
        schema: { type: 'string', description: 'Server-sent events: each `data:` line a `chat.completion.chunk` object, then the literal `[DONE]`.' },
        example: STREAM_EXAMPLE,
      },
    },
  })
  @ApiErrors(400, 402, 413, 415, 502, 503, 504)
  async createChatCompletion(@Body() body: ChatCompletionRequestDto, @CurrentPrincipal() principal: Principal, @Res() reply: FastifyReply): Promise<void> {
    // Closing the connection early stops the work: nobody would read the answer.
    const client = watchClient(reply);
    if (!body.stream) {
      try {
        await reply.status(200).send(await this.chat.complete(principal, body, client.signal));
      } finally {
        client.dispose();
      }
      return;
    }
    let frames: AsyncIterable<string>;
    try {
      frames = await this.chat.stream(principal, body, client.signal);
    } catch (err) {
      client.dispose();
      throw err;
    }
    await reply.status(200).headers(SSE_HEADERS).send(Readable.from(frames));
  }

  @Get('models')
  @Scopes('ai:generate')
  @ApiOperation({
    summary: 'Models (OpenAI-compatible)',
    description: "The models this server offers, OpenAI's list shape: their ids are what `model` takes. Empty when no AI is configured.",
  })
  @ApiOkResponse({ type: ModelListDto })
  listModels(): ModelListDto {
    return {
      object: 'list',
      data: this.calls.models.list().map((m) => ({ id: m.id, object: 'model', created: m.created, owned_by: m.ownedBy })),
    };
  }

  @Post('embeddings')
  @ResponseNotKept('embeddings of a text are never stored')
  @HttpCode(200)
  @Scopes('ai:generate')
  @AiRateLimit()
  @ApiOperation({
    summary: 'Embeddings (OpenAI-compatible)',
    description: [
      "OpenAI's Embeddings API, on a model of `GET /v1/models` whose targets make embeddings (an upstream that offers them, or a local model).",
      PRIVACY,
      METERING,
    ].join('\n'),
  })
  @ApiOkResponse({ type: EmbeddingsDto })
  @ApiErrors(400, 402, 413, 415, 502, 503, 504)
  async createEmbeddings(@Body() body: EmbeddingsRequestDto, @CurrentPrincipal() principal: Principal, @Res() reply: FastifyReply): Promise<void> {
    const client = watchClient(reply);
    try {
      await reply.status(200).send(await this.embeddings.create(principal, body, client.signal));
    } finally {
      client.dispose();
    }
  }
}
