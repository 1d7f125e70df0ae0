import { Injectable } from '@nestjs/common';
import type { Principal } from '../../common/request-context/principal.js';
import { RequestError } from '../../common/errors/request-errors.js';
import { AiCalls, TEMPLATE_TOKENS } from '../ai-calls.js';
import { AiError, AiErrorCode } from '../ai.errors.js';
import type { GenerationCall } from '../generation-call.js';
import type { AiModel, ModelTarget } from '../models/ai-models.js';
import { untilFirstOutput } from '../models/first-output.js';
import { ModelRouter } from '../models/model-router.js';
import { type ChatCompletion, type ChatCompletionChunk, ChatRequest, fromOpenAiUsage, totalUsage, type TokenUsage } from '../providers/ai-provider.js';
import { sseData, SSE_DONE } from '../sse.js';
import { mapMessageTexts, nonTextParts } from './chat-messages.js';
import { ChatCompletionRequestDto } from './dto/chat-completion.dto.js';

/** Tokens held for each image, audio or file part: what a vision model may count for one (its bytes say nothing of it). */
export const NON_TEXT_PART_TOKENS = 3000;

/** The fields of the request that are this server's to handle, not the provider's. */
const OWN_FIELDS = new Set(['model', 'stream', 'stream_options']);

/** A request as the gateway runs it: for the model asked for, with the most tokens it may use worked out. */
interface Prepared {
  model: AiModel;
  /** Its targets that can honour the request (a local model cannot take tools...). */
  targets: ModelTarget[];
  request: ChatRequest;
  mostTokens: number;
}

/**
 * `POST /v1/chat/completions`: OpenAI's request run on the model asked for (its targets in order,
 * see ModelRouter) with the rules every AI call has (AiCalls: quota and budget held, deadline, usage
 * row, PII masking for remote providers). Answers OpenAI's completion, or its stream of chunks.
 * Prompts and answers are never stored, logged or kept.
 */
@Injectable()
export class ChatCompletions {
  constructor(
    private readonly calls: AiCalls,
    private readonly router: ModelRouter,
  ) {}

  async complete(principal: Principal, dto: ChatCompletionRequestDto, client: AbortSignal): Promise<ChatCompletion> {
    const prepared = this.prepare(dto);
    const call = await this.calls.begin(principal, { kind: 'chat', model: prepared.model, mostTokens: prepared.mostTokens, streamed: false, client });
    try {
      const { result, target } = await this.router.run(
        { ...prepared.model, targets: prepared.targets },
        call.signal,
        { callId: call.id, retrySingleTarget: true, onAttempt: call.onAttempt },
        ({ target, signal }) => target.provider.chat(this.forTarget(prepared.request, target), signal),
      );
      const usage = fromOpenAiUsage(result.usage);
      await call.succeeded(typeof result.model === 'string' && result.model ? result.model : target.model, result.choices[0]?.finish_reason ?? null, usage);
      return {
        ...result,
        id: completionId(call),
        object: 'chat.completion',
        created: createdOf(call),
        model: prepared.model.id,
        usage: result.usage ?? openAiUsage(usage),
      };
    } catch (err) {
      throw await call.failed(err);
    } finally {
      call.dispose();
    }
  }

  /**
   * Starts a streamed completion. Rejects while nothing is sent (the client gets a plain error
   * response, after the model's other targets were tried); afterwards yields SSE frames of
   * `chat.completion.chunk` objects and `[DONE]` — or, if it fails midway, one OpenAI-style
   * `{"error": {…}}` frame (which OpenAI's clients raise as an APIError) and no `[DONE]`.
   */
  async stream(principal: Principal, dto: ChatCompletionRequestDto, client: AbortSignal): Promise<AsyncIterable<string>> {
    const prepared = this.prepare(dto);
    const call = await this.calls.begin(principal, { kind: 'chat', model: prepared.model, mostTokens: prepared.mostTokens, streamed: true, client });
    try {
      const { result: chunks, target } = await this.router.run(
        { ...prepared.model, targets: prepared.targets },
        call.signal,
        { callId: call.id, retrySingleTarget: false, onAttempt: call.onAttempt },
        async ({ target, signal, started }) =>
          untilFirstOutput(await target.provider.chatStream(this.forTarget(prepared.request, target), signal), isOutput, started),
      );
      const frames = this.frames(call, target, chunks, dto.stream_options?.include_usage === true);
      call.settleIfUnread();
      return frames;
    } catch (err) {
      const error = await call.failed(err);
      call.dispose();
      throw error;
    }
  }

  /** The request checked against the model: 400 for what no target of it can honour; the most tokens it may use. */
  private prepare(dto: ChatCompletionRequestDto): Prepared {
    const model = this.calls.model(dto.model);
    const problems: string[] = [];
    if (dto.stream_options != null && dto.stream !== true) problems.push('stream_options is only allowed with stream: true');
    if (dto.store === true) problems.push('store must be false: prompts and answers are never stored');
    if (dto.prompt_cache_retention === '24h') problems.push('prompt_cache_retention must not be 24h: prompts are never kept');
    for (const field of ['max_tokens', 'max_completion_tokens'] as const) {
      const value = dto[field];
      if (value != null && value > model.maxTokens) problems.push(`${field} must be at most ${model.maxTokens} for the model ${model.id}`);
    }
    if (problems.length) throw RequestError.invalid(problems);

    const request = Object.fromEntries(
      Object.entries(dto).filter(([key, value]) => value !== undefined && value !== null && !OWN_FIELDS.has(key)),
    ) as ChatRequest;
    // Without a limit the upstream might write more than is held; the model's own is sent (as max_tokens, the name every server knows).
    const maxTokens = dto.max_completion_tokens ?? dto.max_tokens ?? model.maxTokens;
    if (dto.max_completion_tokens == null && dto.max_tokens == null) request.max_tokens = maxTokens;

    // Targets that cannot honour a field are passed over; when none can, the first one's reasons are the answer.
    const refusals = model.targets.map((target) => target.provider.refusedFields({ ...request, model: target.model }));
    const targets = model.targets.filter((_target, i) => refusals[i].length === 0);
    if (targets.length === 0) throw RequestError.invalid(refusals[0]);

    // The most it may use: every choice's max tokens, and the prompt bounded by its bytes (no byte-level
    // tokenizer makes more tokens than bytes) with the template's tokens, and a fixed count per image.
    const promptBytes = Buffer.byteLength(
      JSON.stringify([request.messages, request.tools ?? null, request.functions ?? null, request.response_format ?? null]),
    );
    const mostTokens = (dto.n ?? 1) * maxTokens + promptBytes + TEMPLATE_TOKENS + nonTextParts(request.messages) * NON_TEXT_PART_TOKENS;
    return { model, targets, request, mostTokens };
  }

  /** The request as `target` gets it: its model id, and the texts masked when it is remote (AI_REDACT_PII). */
  private forTarget(request: ChatRequest, target: ModelTarget): ChatRequest {
    if (!this.calls.redacts(target)) return { ...request, model: target.model };
    const redact = (text: string) => this.calls.redact(text, target);
    return { ...request, model: target.model, messages: mapMessageTexts(request.messages, redact), ...(request.user ? { user: redact(request.user) } : {}) };
  }

  private async *frames(call: GenerationCall, target: ModelTarget, chunks: AsyncIterable<ChatCompletionChunk>, includeUsage: boolean): AsyncGenerator<string> {
    call.reading = true;
    const id = completionId(call);
    const created = createdOf(call);
    let usage: TokenUsage | undefined;
    let finishReason: string | null = null;
    let model = target.model;
    try {
      for await (const chunk of chunks) {
        if (typeof chunk.model === 'string' && chunk.model) model = chunk.model;
        if (chunk.usage) usage = fromOpenAiUsage(chunk.usage);
        for (const choice of chunk.choices) {
          if (choice.delta?.content) call.chunks++;
          if (choice.finish_reason) finishReason = choice.finish_reason;
        }
        // The usage chunk is sent last, after the usage is recorded; and only to a client that asked for it.
        if (chunk.choices.length === 0) continue;
        const { usage: _usage, ...rest } = chunk;
        yield sseData({ ...rest, id, object: 'chat.completion.chunk', created, model: call.model.id, ...(includeUsage ? { usage: null } : {}) });
      }
      const used = usage ?? totalUsage(0, call.chunks);
      await call.succeeded(model, finishReason, used);
      if (includeUsage) yield sseData({ id, object: 'chat.completion.chunk', created, model: call.model.id, choices: [], usage: openAiUsage(used) });
      yield SSE_DONE;
    } catch (err) {
      const error = await call.failed(err);
      // OpenAI's shape of an error in a stream (`code` a string, as its typed clients decode it).
      if (!call.clientGone) yield sseData({ error: { message: error.message, type: 'server_error', code: error.reason, param: null } });
    } finally {
      // Left early by the consumer (the response stream was destroyed): still metered.
      if (!call.recorded) await call.failed(new AiError(AiErrorCode.Aborted, 'The client closed the request'));
      call.dispose();
    }
  }
}

/** A chunk that is part of the answer (text, a tool call, a refusal, a finish, the usage): the target has started answering. */
function isOutput(chunk: ChatCompletionChunk): boolean {
  if (chunk.usage) return true;
  return chunk.choices.some((c) => c.finish_reason || c.delta?.content || c.delta?.refusal || c.delta?.tool_calls?.length || c.delta?.function_call);
}

/** `chatcmpl-` and the ULID of the call's usage row (`gen_…`). */
function completionId(call: GenerationCall): string {
  return `chatcmpl-${call.id.slice(call.id.indexOf('_') + 1)}`;
}

function createdOf(call: GenerationCall): number {
  return Math.floor(call.createdAt.getTime() / 1000);
}

function openAiUsage(usage: TokenUsage): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  return { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.totalTokens };
}
