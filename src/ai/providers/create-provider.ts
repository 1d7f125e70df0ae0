import { existsSync } from 'node:fs';
import { AppConfig, ConfigError } from '../../config/app-config.js';
import { AiProvider } from './ai-provider.js';
import { LocalProvider } from './local.provider.js';
import { OpenAiProvider } from './openai.provider.js';

/**
 * Picks the provider from AI_PROVIDER, once, at start; a provider missing its settings stops the
 * start. None configured: null, and AI routes answer 503.
 */
export function createAiProvider(config: AppConfig): AiProvider | null {
  switch (config.AI_PROVIDER) {
    case 'openai': {
      const missing = (['AI_BASE_URL', 'AI_MODEL'] as const).filter((key) => !config[key]);
      if (missing.length) throw new ConfigError(`Invalid configuration:\n  - AI_PROVIDER=openai needs ${missing.join(' and ')}`);
      return new OpenAiProvider({ baseUrl: config.AI_BASE_URL!, apiKey: config.AI_API_KEY, model: config.AI_MODEL! });
    }
    case 'local': {
      if (!config.AI_MODEL_PATH) throw new ConfigError('Invalid configuration:\n  - AI_PROVIDER=local needs AI_MODEL_PATH (a .gguf file)');
      if (!existsSync(config.AI_MODEL_PATH)) throw new ConfigError(`Invalid configuration:\n  - AI_MODEL_PATH: no file at ${config.AI_MODEL_PATH}`);
      return new LocalProvider({ modelPath: config.AI_MODEL_PATH, threads: config.AI_THREADS, model: config.AI_MODEL });
    }
    default:
      return null;
  }
}
