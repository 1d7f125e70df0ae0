import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { Principal } from '../common/request-context/principal.js';
import { newId } from '../common/ids.js';
import { AppConfig } from '../config/app-config.js';
import { AiError, AiErrorCode, asAiError, NOT_CONFIGURED_MESSAGE } from './ai.errors.js';
import { Meters, type QuotaReservation } from '../billing/meters.js';
import { AiUsageOutcome } from './ai-usage.entity.js';
import { AiUsageService } from './ai-usage.service.js';
import { DEFAULT_MAX_TOKENS, GenerateDto, GenerationDto } from './dto/generate.dto.js';
import { redactPii } from './pii.js';
import { AI_PROVIDER, AiProvider, FinishReason, GenerationRequest, StreamEvent, TokenUsage, totalUsage } from './providers/ai-provider.js';
import { sseData, SSE_DONE } from './sse.js';

/** How long after its deadline a generation's quota hold lapses if nothing settled it (its process died): time enough to record the usage. */
const SETTLE_GRACE_MS = 60_000;
/** Tokens a chat template adds around the prompt (OpenAI counts 7 for one user message; llama.cpp-style templates a dozen or so). */
const TEMPLATE_TOKENS = 32;

/**
 * The most `ai.tokens` a generation may use, held before it runs: its maxTokens, and its prompt's
 * tokens bounded by the prompt's UTF-8 bytes (byte-level tokenizers never make more tokens than
 * bytes) plus the chat template's.
 */
export function mostTokensOf(request: GenerationRequest): number {
  return request.maxTokens + Buffer.byteLength(request.prompt, 'utf8') + TEMPLATE_TOKENS;
}

/**
 * Runs generations: privacy (PII masking for remote providers), the deadline, the mapping of
 * failures to HTTP, and metering (the quota held before, the usage recorded after). Never logs or
 * stores a prompt or an output.
 */
@Injectable()
export class AiService implements OnApplicationShutdown {
  private readonly logger = new Logger(AiService.name);

  constructor(
    @Inject(AI_PROVIDER) private readonly provider: AiProvider | null,
    private readonly config: AppConfig,
    private readonly usage: AiUsageService,
    private readonly meters: Meters,
  ) {}

  async generate(principal: Principal, dto: GenerateDto, clientSignal: AbortSignal): Promise<GenerationDto> {
    const call = await this.begin(principal, dto, clientSignal, false);
    try {
      const result = await call.provider.generate(call.request, call.signal);
      await call.succeeded(result.model, result.finishReason, result.usage);
      return { id: call.id, model: result.model, text: result.text, finishReason: result.finishReason, usage: result.usage, createdAt: call.createdAt };
    } catch (err) {
      throw await call.failed(err);
    } finally {
      call.dispose();
    }
  }

  /**
   * Starts a streamed generation. Rejects with an AiError while nothing is sent yet (so the
   * client gets a plain error response); afterwards yields SSE frames: `{text}` chunks, one
   * `{finishReason, usage}`, `[DONE]` — or one `{error, code, message}` frame if it fails midway.
   */
  async stream(principal: Principal, dto: GenerateDto, clientSignal: AbortSignal): Promise<AsyncIterable<string>> {
    const call = await this.begin(principal, dto, clientSignal, true);
    try {
      const stream = await call.provider.stream(call.request, call.signal);
      const frames = this.frames(call, stream.model, stream.events);
      // A client that leaves before the first frame is read: the response is destroyed, the generator
      // never starts and its `finally` never runs, so the call is settled (metered, timer cleared) here.
      const settleUnread = () => {
        if (!call.reading) void call.failed(new AiError(AiErrorCode.Aborted, 'The client closed the request')).finally(() => call.dispose());
      };
      if (clientSignal.aborted) settleUnread();
      else clientSignal.addEventListener('abort', settleUnread, { once: true });
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
    if (!this.provider) throw new AiError(AiErrorCode.NotConfigured, NOT_CONFIGURED_MESSAGE);
    const most = requests.reduce((sum, r) => sum + mostTokensOf({ prompt: r.prompt, maxTokens: r.maxTokens ?? DEFAULT_MAX_TOKENS }), 0);
    await this.meters.assertRoom(principal.accountId, 'ai.tokens', most);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.provider?.dispose?.();
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

  /**
   * A generation about to run, with the `ai.tokens` it may use held against a hard quota (402 when
   * there is no room, before any work). The hold is settled when its usage is recorded; one left by
   * a process that died expires once the generation could not be running any more.
   */
  private async begin(principal: Principal, dto: GenerateDto, clientSignal: AbortSignal, streamed: boolean): Promise<GenerationCall> {
    const provider = this.provider;
    if (!provider) throw new AiError(AiErrorCode.NotConfigured, NOT_CONFIGURED_MESSAGE);
    // Masked before the prompt leaves the process; an in-process model sees it as sent.
    const prompt = provider.remote && this.config.AI_REDACT_PII ? redactPii(dto.prompt).text : dto.prompt;
    const request: GenerationRequest = { prompt, maxTokens: dto.maxTokens ?? DEFAULT_MAX_TOKENS, temperature: dto.temperature };
    const ttlMs = this.config.AI_TIMEOUT_MS + SETTLE_GRACE_MS;
    const reservation = await this.meters.reserve(principal.accountId, 'ai.tokens', mostTokensOf(request), ttlMs);
    return new GenerationCall(principal, request, streamed, clientSignal, this.config.AI_TIMEOUT_MS, provider, this.usage, this.logger, reservation);
  }
}

/** One generation in flight: its id, deadline, and the one usage row it leaves. */
class GenerationCall {
  readonly id = newId('gen');
  readonly createdAt = new Date().toISOString();
  readonly signal: AbortSignal;
  /** Text chunks sent so far: the completion tokens of a stream that never got its usage. */
  chunks = 0;
  /** The response has started reading frames: from then on the frames generator settles the call. */
  reading = false;
  recorded = false;
  private readonly started = performance.now();
  private readonly deadline = new AbortController();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly principal: Principal,
    readonly request: GenerationRequest,
    private readonly streamed: boolean,
    private readonly client: AbortSignal,
    private readonly timeoutMs: number,
    readonly provider: AiProvider,
    private readonly usage: AiUsageService,
    private readonly logger: Logger,
    /** The quota held for this call: given back in the transaction that records its usage. */
    private readonly reservation: QuotaReservation | null,
  ) {
    this.timer = setTimeout(() => this.deadline.abort(new AiError(AiErrorCode.Timeout, this.timeoutMessage())), timeoutMs);
    this.signal = AbortSignal.any([client, this.deadline.signal]);
  }

  get clientGone(): boolean {
    return this.client.aborted;
  }

  async succeeded(model: string, finishReason: FinishReason, usage: TokenUsage): Promise<void> {
    await this.record({ model, outcome: 'success', statusCode: 200, finishReason, usage });
  }

  /** Records the failure and returns what the client is told. */
  async failed(err: unknown): Promise<AiError> {
    // Our own signals explain an abort better than whatever the provider threw while aborting.
    const error = this.deadline.signal.aborted
      ? new AiError(AiErrorCode.Timeout, this.timeoutMessage())
      : this.client.aborted
        ? new AiError(AiErrorCode.Aborted, 'The client closed the request')
        : asAiError(err);
    if (!(err instanceof AiError) && error.reason === AiErrorCode.UpstreamFailed) this.logUnexpected(err);
    await this.record({
      model: this.provider.defaultModel,
      outcome: error.reason as AiUsageOutcome, // NotConfigured never reaches a call: it has no provider
      statusCode: error.status,
      finishReason: null,
      usage: totalUsage(0, this.chunks),
    });
    return error;
  }

  dispose(): void {
    clearTimeout(this.timer);
  }

  private async record(row: { model: string; outcome: AiUsageOutcome; statusCode: number; finishReason: string | null; usage: TokenUsage }): Promise<void> {
    if (this.recorded) return;
    this.recorded = true;
    await this.usage.record(
      {
        id: this.id,
        accountId: this.principal.accountId,
        credentialId: this.principal.credentialId ?? null,
        provider: this.provider.name,
        model: row.model.slice(0, 200),
        streamed: this.streamed,
        promptTokens: row.usage.promptTokens,
        completionTokens: row.usage.completionTokens,
        totalTokens: row.usage.totalTokens,
        latencyMs: Math.round(performance.now() - this.started),
        outcome: row.outcome,
        statusCode: row.statusCode,
        finishReason: row.finishReason,
      },
      this.reservation,
    );
  }

  private timeoutMessage(): string {
    return `The AI provider did not finish within ${this.timeoutMs} ms`;
  }

  /** A provider bug, not an upstream answer. Its message might quote the prompt: log where, not what. */
  private logUnexpected(err: unknown): void {
    // Frames only: the message lines of an error (which may quote the prompt) never reach the log.
    const stack =
      err instanceof Error
        ? (err.stack ?? '')
            .split('\n')
            .filter((line) => /^\s+at /.test(line))
            .slice(0, 7)
            .join('\n')
        : '';
    this.logger.error({ generationId: this.id, errorType: err instanceof Error ? err.name : typeof err, stack }, 'AI provider failed unexpectedly');
  }
}
