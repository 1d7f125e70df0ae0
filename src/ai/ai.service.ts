import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { Principal } from '../common/request-context/principal.js';
import { Meters } from '../billing/meters.js';
import { AiCalls, TEMPLATE_TOKENS } from './ai-calls.js';
import { AiError, AiErrorCode } from './ai.errors.js';
import { DEFAULT_MAX_TOKENS, GenerateDto, GenerationDto } from './dto/generate.dto.js';
import type { GenerationCall } from './generation-call.js';
import { untilFirstOutput } from './models/first-output.js';
import { ModelRouter } from './models/model-router.js';
import { StreamEvent } from './providers/ai-provider.js';
import { sseData, SSE_DONE } from './sse.js';

/**
 * The most `ai.tokens` a generation may use, held before it runs: its maxTokens, and its prompt's
 * tokens bounded by the prompt's UTF-8 bytes (byte-level tokenizers never make more tokens than
 * bytes) plus the chat template's.
 */
export function mostTokensOf(request: { prompt: string; maxTokens: number }): number {
  return request.maxTokens + Buffer.byteLength(request.prompt, 'utf8') + TEMPLATE_TOKENS;
}

/**
 * `POST /v1/ai/generate` and landing pages: a prompt continued by the server's default model (its
 * targets tried in order), with the calls' shared rules (AiCalls: the quota held, the deadline, the
 * usage row, PII masking for remote providers). Never logs or stores a prompt or an output.
 */
@Injectable()
export class AiService implements OnApplicationShutdown {
  constructor(
    private readonly calls: AiCalls,
    private readonly router: ModelRouter,
    private readonly meters: Meters,
  ) {}

  async generate(principal: Principal, dto: GenerateDto, clientSignal: AbortSignal): Promise<GenerationDto> {
    const { call, request } = await this.begin(principal, dto, clientSignal, false);
    try {
      const { result } = await this.router.run(
        call.model,
        call.signal,
        { callId: call.id, retrySingleTarget: true, onAttempt: call.onAttempt },
        ({ target, signal }) => target.provider.generate({ ...request, model: target.model, prompt: this.calls.redact(request.prompt, target) }, signal),
      );
      await call.succeeded(result.model, result.finishReason, result.usage);
      return {
        id: call.id,
        model: result.model,
        text: result.text,
        finishReason: result.finishReason,
        usage: result.usage,
        createdAt: call.createdAt.toISOString(),
      };
    } catch (err) {
      throw await call.failed(err);
    } finally {
      call.dispose();
    }
  }

  /**
   * Starts a streamed generation. Rejects with an AiError while nothing is sent yet (so the
   * client gets a plain error response; the model's next target is tried first); afterwards yields
   * SSE frames: `{text}` chunks, one `{finishReason, usage}`, `[DONE]` — or one `{error, code,
   * message}` frame if it fails midway.
   */
  async stream(principal: Principal, dto: GenerateDto, clientSignal: AbortSignal): Promise<AsyncIterable<string>> {
    const { call, request } = await this.begin(principal, dto, clientSignal, true);
    try {
      const { result } = await this.router.run(
        call.model,
        call.signal,
        { callId: call.id, retrySingleTarget: false, onAttempt: call.onAttempt },
        async ({ target, signal, started }) => {
          const stream = await target.provider.stream({ ...request, model: target.model, prompt: this.calls.redact(request.prompt, target) }, signal);
          return { model: stream.model, events: await untilFirstOutput(stream.events, () => true, started) };
        },
      );
      const frames = this.frames(call, result.model, result.events);
      call.settleIfUnread();
      return frames;
    } catch (err) {
      const error = await call.failed(err);
      call.dispose();
      throw error;
    }
  }

  /**
   * For work made of several generations (a landing page): 402 unless a hard `ai.tokens` quota has
   * room for all of them at once, so it fails before the first rather than midway. A check, nothing
   * held: each generation still holds its own quota when it starts.
   */
  async assertRoomFor(principal: Principal, requests: Array<Pick<GenerateDto, 'prompt' | 'maxTokens'>>): Promise<void> {
    this.calls.defaultModel();
    const most = requests.reduce((sum, r) => sum + mostTokensOf({ prompt: r.prompt, maxTokens: r.maxTokens ?? DEFAULT_MAX_TOKENS }), 0);
    await this.meters.assertRoom(principal.accountId, 'ai.tokens', most);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.calls.models.dispose();
  }

  private async begin(principal: Principal, dto: GenerateDto, client: AbortSignal, streamed: boolean) {
    const model = this.calls.defaultModel();
    const request = { prompt: dto.prompt, maxTokens: dto.maxTokens ?? DEFAULT_MAX_TOKENS, temperature: dto.temperature };
    const call = await this.calls.begin(principal, { kind: 'generate', model, mostTokens: mostTokensOf(request), streamed, client });
    return { call, request };
  }

  private async *frames(call: GenerationCall, model: string, events: AsyncIterable<StreamEvent>): AsyncGenerator<string> {
    call.reading = true;
    try {
      for await (const event of events) {
        if (event.type === 'text') {
          call.chunks++;
          yield sseData({ text: event.text });
        } else {
          await call.succeeded(event.model ?? model, event.finishReason, event.usage);
          yield sseData({ finishReason: event.finishReason, usage: event.usage });
          yield SSE_DONE;
          return;
        }
      }
      throw new AiError(AiErrorCode.UpstreamFailed, 'The AI provider ended the stream without finishing');
    } catch (err) {
      const error = await call.failed(err);
      if (!call.clientGone) yield sseData({ error: true, code: error.status, message: error.message });
    } finally {
      // Left early by the consumer (the response stream was destroyed): still metered.
      if (!call.recorded) await call.failed(new AiError(AiErrorCode.Aborted, 'The client closed the request'));
      call.dispose();
    }
  }
}
