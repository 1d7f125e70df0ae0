import { Injectable } from '@nestjs/common';
import type { Principal } from '../../common/request-context/principal.js';
import { AiCalls } from '../ai-calls.js';
import { ModelRouter } from '../models/model-router.js';
import { fromOpenAiUsage, totalUsage } from '../providers/ai-provider.js';
import { EmbeddingsDto, EmbeddingsRequestDto } from './dto/embeddings.dto.js';

/**
 * `POST /v1/embeddings`: OpenAI's request run on the model asked for (its targets in order), with the
 * rules every AI call has (AiCalls). The input's tokens count on the `ai.tokens` meter like a prompt's.
 */
@Injectable()
export class Embeddings {
  constructor(
    private readonly calls: AiCalls,
    private readonly router: ModelRouter,
  ) {}

  async create(principal: Principal, dto: EmbeddingsRequestDto, client: AbortSignal): Promise<EmbeddingsDto> {
    const model = this.calls.model(dto.model);
    const input = typeof dto.input === 'string' ? [dto.input] : dto.input;
    // Tokens are bounded by bytes (and a beginning-of-sequence token each).
    const mostTokens = input.reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8') + 1, 0);
    const call = await this.calls.begin(principal, { kind: 'embeddings', model, mostTokens, streamed: false, client });
    try {
      const { result, target } = await this.router.run(
        model,
        call.signal,
        { callId: call.id, retrySingleTarget: true, onAttempt: call.onAttempt },
        ({ target, signal }) =>
          target.provider.embed(
            {
              model: target.model,
              input: input.map((text) => this.calls.redact(text, target)),
              ...(dto.dimensions ? { dimensions: dto.dimensions } : {}),
              ...(dto.user ? { user: this.calls.redact(dto.user, target) } : {}),
            },
            signal,
          ),
      );
      const { promptTokens } = fromOpenAiUsage(result.usage);
      await call.succeeded(typeof result.model === 'string' && result.model ? result.model : target.model, null, totalUsage(promptTokens, 0));
      return {
        object: 'list',
        model: model.id,
        data: [...result.data]
          .sort((a, b) => a.index - b.index)
          .map((d, index) => ({ object: 'embedding', index, embedding: dto.encoding_format === 'base64' ? base64Of(d.embedding) : d.embedding })),
        usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
      };
    } catch (err) {
      throw await call.failed(err);
    } finally {
      call.dispose();
    }
  }
}

/** A vector as OpenAI's `encoding_format: "base64"` writes it: little-endian float32 bytes in base64. */
export function base64Of(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, i) => bytes.writeFloatLE(value, i * 4));
  return bytes.toString('base64');
}
