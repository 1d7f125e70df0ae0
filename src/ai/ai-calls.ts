import { Injectable, Logger } from '@nestjs/common';
import { Meters, type QuotaReservation, SubjectLimitReached } from '../billing/meters.js';
import { newId } from '../common/ids.js';
import type { Principal } from '../common/request-context/principal.js';
import { AppConfig } from '../config/app-config.js';
import { AiError, AiErrorCode, NOT_CONFIGURED_MESSAGE } from './ai.errors.js';
import type { AiUsageKind } from './ai-usage.entity.js';
import { AiUsageService } from './ai-usage.service.js';
import { GenerationCall } from './generation-call.js';
import { AiModel, AiModels, ModelTarget } from './models/ai-models.js';
import { redactPii } from './pii.js';

/** How long after its deadline a call's quota hold lapses if nothing settled it (its process died): time enough to record the usage. */
const SETTLE_GRACE_MS = 60_000;
/** Tokens a chat template adds around the prompt (OpenAI counts 7 for one user message; llama.cpp-style templates a dozen or so). */
export const TEMPLATE_TOKENS = 32;

/**
 * What every AI call shares, whichever route it came through (`/v1/ai/generate`, landing pages,
 * `/v1/chat/completions`, `/v1/embeddings`): the models, the `ai.tokens` quota held before it runs,
 * the deadline and the usage row after (GenerationCall), and the privacy rule for what leaves the
 * process (`redact`).
 */
@Injectable()
export class AiCalls {
  private readonly logger = new Logger('AiCalls');

  constructor(
    readonly models: AiModels,
    private readonly config: AppConfig,
    private readonly usage: AiUsageService,
    private readonly meters: Meters,
  ) {}

  /** The model of `POST /v1/ai/generate` and landing pages; 503 when no AI is configured. */
  defaultModel(): AiModel {
    if (!this.models.defaultModel) throw new AiError(AiErrorCode.NotConfigured, NOT_CONFIGURED_MESSAGE);
    return this.models.defaultModel;
  }

  /** A model by its public id: 503 when no AI is configured, 400 naming it when this server has no such model. */
  model(id: string): AiModel {
    if (!this.models.configured) throw new AiError(AiErrorCode.NotConfigured, NOT_CONFIGURED_MESSAGE);
    const model = this.models.find(id);
    if (!model)
      throw AiError.modelNotFound(
        id,
        this.models.list().map((m) => m.id),
      );
    return model;
  }

  /**
   * A call about to run, with the most `ai.tokens` it may use held against the plan's hard quota (402
   * when there is no room) and the credential's AI budget (429 `ai_budget_exhausted`), before any
   * work. The hold is settled when its usage is recorded; one left by a process that died expires
   * once the call could not be running any more.
   */
  async begin(
    principal: Principal,
    call: { kind: AiUsageKind; model: AiModel; mostTokens: number; streamed: boolean; client: AbortSignal },
  ): Promise<GenerationCall> {
    const ttlMs = this.config.AI_TIMEOUT_MS + SETTLE_GRACE_MS;
    const budget = principal.aiBudget;
    const subject = budget && { id: budget.subject, perDay: budget.tokensPerDay, perMonth: budget.tokensPerMonth };
    let reservation: QuotaReservation | null;
    try {
      reservation = await this.meters.reserve(principal.accountId, 'ai.tokens', call.mostTokens, ttlMs, { subject });
    } catch (err) {
      if (!(err instanceof SubjectLimitReached)) throw err;
      throw AiError.budgetExhausted({ ...err, whose: principal.kind === 'access_token' ? 'service account' : 'API key' });
    }
    return new GenerationCall({
      subjectId: budget?.subject ?? null,
      id: newId('gen'),
      kind: call.kind,
      principal,
      model: call.model,
      streamed: call.streamed,
      client: call.client,
      timeoutMs: this.config.AI_TIMEOUT_MS,
      usage: this.usage,
      logger: this.logger,
      reservation,
    });
  }

  /** Text as it may leave for `target`: e-mails and phone numbers masked when it is remote and AI_REDACT_PII is on; as written for an in-process model. */
  redact(text: string, target: ModelTarget): string {
    return target.provider.remote && this.config.AI_REDACT_PII ? redactPii(text).text : text;
  }

  /** Whether `redact` changes anything for this target. */
  redacts(target: ModelTarget): boolean {
    return target.provider.remote && this.config.AI_REDACT_PII;
  }
}
