import { AiError, AiErrorCode, NOT_CONFIGURED_MESSAGE } from '../ai.errors.js';
import { AiProvider, GenerationResult, GenerationStream } from './ai-provider.js';

/** AI_PROVIDER unset: every call is a 503, and nothing is loaded or contacted. */
export class UnconfiguredProvider implements AiProvider {
  readonly name = 'none' as const;
  readonly remote = false;
  readonly defaultModel = 'none';

  async generate(): Promise<GenerationResult> {
    throw new AiError(AiErrorCode.NotConfigured, NOT_CONFIGURED_MESSAGE);
  }

  async stream(): Promise<GenerationStream> {
    throw new AiError(AiErrorCode.NotConfigured, NOT_CONFIGURED_MESSAGE);
  }
}
