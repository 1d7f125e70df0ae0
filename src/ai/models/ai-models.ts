import type { AiProvider } from '../providers/ai-provider.js';
import { LocalProvider } from '../providers/local.provider.js';
import { OpenAiProvider } from '../providers/openai.provider.js';
import type { AiCatalog } from './ai-catalog.js';

/** One place a model's requests can go: a provider and the model id it is asked for. */
export interface ModelTarget {
  provider: AiProvider;
  /** The upstream's model id. */
  model: string;
  /** `provider/model`, as AI_PROVIDERS_FILE writes it: logs and metrics. */
  label: string;
  /** How long to wait for its first output before falling back to the next target; unset: the call's deadline. */
  timeoutMs?: number;
}

/** A model the operator offers, by its public id. */
export interface AiModel {
  id: string;
  /** Tried in order (see ModelRouter). */
  targets: ModelTarget[];
  /** The most tokens a request may ask for. */
  maxTokens: number;
  ownedBy: string;
  created: number;
}

/**
 * The models of this server, with their providers made once at start from the catalog the
 * configuration checked (AppConfig.aiCatalog). Empty when no AI is configured: AI routes answer 503.
 */
export class AiModels {
  private readonly byId = new Map<string, AiModel>();

  private constructor(
    models: AiModel[],
    /** The model of `POST /v1/ai/generate` and landing pages. */
    readonly defaultModel: AiModel | null,
    private readonly providers: AiProvider[],
  ) {
    for (const model of models) this.byId.set(model.id, model);
  }

  static fromCatalog(catalog: AiCatalog | null, options: { fetch?: typeof fetch } = {}): AiModels {
    if (!catalog) return new AiModels([], null, []);
    const providers = new Map<string, AiProvider>();
    for (const [name, spec] of Object.entries(catalog.providers)) {
      providers.set(
        name,
        spec.type === 'openai'
          ? new OpenAiProvider({ name, baseUrl: spec.baseUrl, apiKey: spec.apiKey, fetch: options.fetch })
          : new LocalProvider({ name, modelPath: spec.modelPath, threads: spec.threads }),
      );
    }
    const models = catalog.models.map((spec): AiModel => ({
      id: spec.id,
      maxTokens: spec.maxTokens,
      ownedBy: spec.ownedBy,
      created: spec.created,
      targets: spec.targets.map((t) => ({
        provider: providers.get(t.provider)!,
        model: t.model,
        label: `${t.provider}/${t.model}`,
        timeoutMs: catalog.providers[t.provider].timeoutMs,
      })),
    }));
    return new AiModels(models, models.find((m) => m.id === catalog.defaultModel) ?? null, [...providers.values()]);
  }

  get configured(): boolean {
    return this.defaultModel !== null;
  }

  find(id: string): AiModel | undefined {
    return this.byId.get(id);
  }

  list(): AiModel[] {
    return [...this.byId.values()];
  }

  async dispose(): Promise<void> {
    await Promise.all(this.providers.map((p) => p.dispose?.()));
  }
}
