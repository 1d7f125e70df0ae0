import type { Logger } from '@nestjs/common';
import type { QuotaReservation } from '../billing/meters.js';
import type { Principal } from '../common/request-context/principal.js';
import { AiError, AiErrorCode, asAiError } from './ai.errors.js';
import type { AiUsageKind, AiUsageOutcome } from './ai-usage.entity.js';
import type { AiUsageService } from './ai-usage.service.js';
import type { AiModel, ModelTarget } from './models/ai-models.js';
import { type TokenUsage, totalUsage } from './providers/ai-provider.js';

export interface GenerationCallOptions {
  id: string;
  kind: AiUsageKind;
  principal: Principal;
  model: AiModel;
  streamed: boolean;
  client: AbortSignal;
  timeoutMs: number;
  usage: AiUsageService;
  logger: Logger;
  /** The quota held for this call: given back in the transaction that records its usage. */
  reservation: QuotaReservation | null;
  /** Whose AI budget its tokens count against (the API key or service account), if anyone's. */
  subjectId: string | null;
}

/**
 * One AI call in flight (a generation, a chat completion, embeddings): its id, deadline, the
 * target answering it, and the one usage row it leaves — which settles the quota it held.
 */
export class GenerationCall {
  readonly id: string;
  readonly createdAt = new Date();
  readonly signal: AbortSignal;
  readonly model: AiModel;
  /** The target asked last (the one answering, once one does). */
  target: ModelTarget;
  /** Targets that failed before the one asked last. */
  fallbacks = 0;
  /** Text chunks sent so far: the completion tokens of a stream that never got its usage. */
  chunks = 0;
  /** The response has started reading frames: from then on the frames generator settles the call. */
  reading = false;
  recorded = false;
  private readonly started = performance.now();
  /** Aborts at the deadline or when the client leaves (one controller, not AbortSignal.any: that costs ~30 µs a call on Node 20). */
  private readonly ended = new AbortController();
  private timedOut = false;
  private readonly timer: NodeJS.Timeout;
  private readonly onClientGone = () => this.ended.abort(this.options.client.reason);

  constructor(private readonly options: GenerationCallOptions) {
    this.id = options.id;
    this.model = options.model;
    this.target = options.model.targets[0];
    this.signal = this.ended.signal;
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.ended.abort(new AiError(AiErrorCode.Timeout, this.timeoutMessage()));
    }, options.timeoutMs);
    if (options.client.aborted) this.onClientGone();
    else options.client.addEventListener('abort', this.onClientGone, { once: true });
  }

  get clientGone(): boolean {
    return this.options.client.aborted;
  }

  /** The ModelRouter's `onAttempt`: which target this call is at. */
  readonly onAttempt = (target: ModelTarget, fallbacks: number): void => {
    this.target = target;
    this.fallbacks = fallbacks;
  };

  async succeeded(model: string, finishReason: string | null, usage: TokenUsage): Promise<void> {
    await this.record({ model, outcome: 'success', statusCode: 200, finishReason, usage });
  }

  /** Records the failure and returns what the client is told. */
  async failed(err: unknown): Promise<AiError> {
    // Our own signals explain an abort better than whatever the provider threw while aborting.
    const error = this.timedOut
      ? new AiError(AiErrorCode.Timeout, this.timeoutMessage())
      : this.options.client.aborted
        ? new AiError(AiErrorCode.Aborted, 'The client closed the request')
        : asAiError(err);
    if (!(err instanceof AiError) && error.reason === AiErrorCode.UpstreamFailed) this.logUnexpected(err);
    await this.record({
      model: this.target.model,
      outcome: error.reason as AiUsageOutcome, // NotConfigured never reaches a call: it has no provider
      statusCode: error.status,
      finishReason: null,
      usage: totalUsage(0, this.chunks),
    });
    return error;
  }

  /**
   * For a stream handed to the response: a client that leaves before its first frame is read
   * destroys the response, so the frames generator never starts and never settles the call; this
   * does (metered, timer cleared).
   */
  settleIfUnread(): void {
    const settle = () => {
      if (!this.reading) void this.failed(new AiError(AiErrorCode.Aborted, 'The client closed the request')).finally(() => this.dispose());
    };
    if (this.options.client.aborted) settle();
    else this.options.client.addEventListener('abort', settle, { once: true });
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.options.client.removeEventListener('abort', this.onClientGone);
  }

  private async record(row: { model: string; outcome: AiUsageOutcome; statusCode: number; finishReason: string | null; usage: TokenUsage }): Promise<void> {
    if (this.recorded) return;
    this.recorded = true;
    const { principal } = this.options;
    await this.options.usage.record(
      {
        id: this.id,
        accountId: principal.accountId,
        credentialId: principal.credentialId ?? null,
        kind: this.options.kind,
        requestedModel: this.model.id.slice(0, 200),
        provider: this.target.provider.name,
        model: row.model.slice(0, 200),
        fallbacks: this.fallbacks,
        streamed: this.options.streamed,
        promptTokens: row.usage.promptTokens,
        completionTokens: row.usage.completionTokens,
        totalTokens: row.usage.totalTokens,
        latencyMs: Math.round(performance.now() - this.started),
        outcome: row.outcome,
        statusCode: row.statusCode,
        finishReason: row.finishReason,
      },
      this.options.reservation,
      this.options.subjectId,
    );
  }

  private timeoutMessage(): string {
    return `The AI provider did not finish within ${this.options.timeoutMs} ms`;
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
    this.options.logger.error({ generationId: this.id, errorType: err instanceof Error ? err.name : typeof err, stack }, 'AI provider failed unexpectedly');
  }
}
