import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';

/** The most tokens a request may ask a model for, unless the model says otherwise (`maxTokens`). */
export const DEFAULT_MODEL_MAX_TOKENS = 4096;
const MAX_TARGETS = 10;

export type ProviderSpec =
  | {
      type: 'openai';
      baseUrl: string;
      apiKey?: string;
      /** How long to wait for a target's first output before falling back to the next; unset: the call's deadline (AI_TIMEOUT_MS). */
      timeoutMs?: number;
    }
  | { type: 'local'; modelPath: string; threads: number; timeoutMs?: number };

export interface TargetSpec {
  provider: string;
  /** The upstream's model id (for a local provider: the name usage rows give it). */
  model: string;
}

export interface ModelSpec {
  /** The public id clients send as `model`. */
  id: string;
  /** Tried in order: the next on a 429, a 5xx, a timeout or a refused connection before any output. */
  targets: TargetSpec[];
  maxTokens: number;
  ownedBy: string;
  /** `created` in `GET /v1/models` (Unix seconds): when the operator last changed the offer. */
  created: number;
}

/** The providers and the models the operator offers: AI_PROVIDERS_FILE, or the single-provider settings as one model. */
export interface AiCatalog {
  providers: Record<string, ProviderSpec>;
  models: ModelSpec[];
  /** The model `POST /v1/ai/generate` and landing pages use. */
  defaultModel: string;
}

/** The AI settings of the configuration (AppConfig's fields of the same names). */
export interface AiSettings {
  AI_PROVIDERS_FILE?: string;
  AI_PROVIDER?: 'openai' | 'local';
  AI_BASE_URL?: string;
  AI_API_KEY?: string;
  AI_MODEL?: string;
  AI_MODEL_PATH?: string;
  AI_THREADS: number;
}

/** One line naming what is wrong with the AI settings or AI_PROVIDERS_FILE. */
export class AiCatalogError extends Error {}

/**
 * The catalog the settings describe, checked whole at start (a problem throws AiCatalogError naming
 * it); null when no AI is configured. `env` resolves the file's `apiKeyEnv`.
 */
export function loadAiCatalog(settings: AiSettings, env: Record<string, string | undefined>): AiCatalog | null {
  if (settings.AI_PROVIDERS_FILE && settings.AI_PROVIDER) {
    throw new AiCatalogError('set AI_PROVIDERS_FILE or AI_PROVIDER (the single-provider settings), not both');
  }
  if (settings.AI_PROVIDERS_FILE) return readProvidersFile(settings.AI_PROVIDERS_FILE, settings.AI_THREADS, env);
  switch (settings.AI_PROVIDER) {
    case 'openai': {
      const missing = (['AI_BASE_URL', 'AI_MODEL'] as const).filter((key) => !settings[key]);
      if (missing.length) throw new AiCatalogError(`AI_PROVIDER=openai needs ${missing.join(' and ')}`);
      const model = settings.AI_MODEL!;
      return {
        providers: { openai: { type: 'openai', baseUrl: settings.AI_BASE_URL!, apiKey: settings.AI_API_KEY } },
        models: [{ id: model, targets: [{ provider: 'openai', model }], maxTokens: DEFAULT_MODEL_MAX_TOKENS, ownedBy: 'openai', created: 0 }],
        defaultModel: model,
      };
    }
    case 'local': {
      if (!settings.AI_MODEL_PATH) throw new AiCatalogError('AI_PROVIDER=local needs AI_MODEL_PATH (a .gguf file)');
      if (!existsSync(settings.AI_MODEL_PATH)) throw new AiCatalogError(`AI_MODEL_PATH: no file at ${settings.AI_MODEL_PATH}`);
      const model = settings.AI_MODEL ?? modelNameOf(settings.AI_MODEL_PATH);
      return {
        providers: { local: { type: 'local', modelPath: settings.AI_MODEL_PATH, threads: settings.AI_THREADS } },
        models: [
          {
            id: model,
            targets: [{ provider: 'local', model }],
            maxTokens: DEFAULT_MODEL_MAX_TOKENS,
            ownedBy: 'local',
            created: mtimeSeconds(settings.AI_MODEL_PATH),
          },
        ],
        defaultModel: model,
      };
    }
    default:
      return null;
  }
}

function readProvidersFile(path: string, threads: number, env: Record<string, string | undefined>): AiCatalog {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new AiCatalogError(`AI_PROVIDERS_FILE ${path} could not be read as JSON: ${(err as Error).message}`);
  }
  return parseProvidersFile(raw, { threads, env, created: mtimeSeconds(path) });
}

/**
 * AI_PROVIDERS_FILE's content, checked key by key:
 *
 *     { "providers": { "<name>": { "type": "openai", "baseUrl", "apiKey" | "apiKeyEnv", "timeoutMs"? }
 *                    | { "type": "local", "modelPath", "threads"?, "timeoutMs"? } },
 *       "models": { "<public id>": ["<provider>/<upstream model>", …]
 *                 | { "targets": [ … ], "maxTokens"?, "ownedBy"? } },
 *       "default"?: "<public id>" }
 */
export function parseProvidersFile(raw: unknown, options: { threads: number; env: Record<string, string | undefined>; created: number }): AiCatalog {
  const fail = (key: string, problem: string): never => {
    throw new AiCatalogError(`AI_PROVIDERS_FILE: ${key} ${problem}`);
  };
  if (!isObject(raw)) return fail('(the file)', 'must be a JSON object with "providers" and "models"');
  for (const key of Object.keys(raw)) if (!['providers', 'models', 'default'].includes(key)) fail(key, 'is not a field (providers, models, default)');
  if (!isObject(raw.providers) || Object.keys(raw.providers).length === 0) fail('providers', 'must be an object naming at least one provider');
  if (!isObject(raw.models) || Object.keys(raw.models).length === 0) fail('models', 'must be an object naming at least one model');

  const providers: Record<string, ProviderSpec> = {};
  for (const [name, value] of Object.entries(raw.providers as Record<string, unknown>)) {
    const key = `providers.${name}`;
    if (!/^[a-z0-9][a-z0-9_-]{0,39}$/.test(name)) fail(key, 'is not a valid provider name (1–40 of a-z, 0-9, _ and -)');
    if (!isObject(value)) fail(key, 'must be an object');
    const spec = value as Record<string, unknown>;
    const timeoutMs = optionalWhole(spec, 'timeoutMs', key, 1, 3_600_000, fail);
    if (spec.type === 'openai') {
      allowOnly(spec, ['type', 'baseUrl', 'apiKey', 'apiKeyEnv', 'timeoutMs'], key, fail);
      if (typeof spec.baseUrl !== 'string' || !isHttpUrl(spec.baseUrl)) fail(`${key}.baseUrl`, 'must be an http(s) URL, like https://api.openai.com/v1');
      if (spec.apiKey !== undefined && spec.apiKeyEnv !== undefined) fail(key, 'has apiKey and apiKeyEnv: give one');
      if (spec.apiKey !== undefined && (typeof spec.apiKey !== 'string' || !spec.apiKey)) fail(`${key}.apiKey`, 'must be a string');
      let apiKey = spec.apiKey as string | undefined;
      if (spec.apiKeyEnv !== undefined) {
        if (typeof spec.apiKeyEnv !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(spec.apiKeyEnv))
          fail(`${key}.apiKeyEnv`, 'must be the name of an environment variable');
        apiKey = options.env[spec.apiKeyEnv as string];
        if (!apiKey) fail(`${key}.apiKeyEnv`, `names ${spec.apiKeyEnv as string}, which is not set`);
      }
      providers[name] = { type: 'openai', baseUrl: spec.baseUrl as string, ...(apiKey ? { apiKey } : {}), ...(timeoutMs ? { timeoutMs } : {}) };
    } else if (spec.type === 'local') {
      allowOnly(spec, ['type', 'modelPath', 'threads', 'timeoutMs'], key, fail);
      if (typeof spec.modelPath !== 'string' || !spec.modelPath) fail(`${key}.modelPath`, 'must be the path of a .gguf file');
      if (!existsSync(spec.modelPath as string)) fail(`${key}.modelPath`, `names no file (${spec.modelPath as string})`);
      const threads = optionalWhole(spec, 'threads', key, 1, 64, fail) ?? options.threads;
      providers[name] = { type: 'local', modelPath: spec.modelPath as string, threads, ...(timeoutMs ? { timeoutMs } : {}) };
    } else {
      fail(`${key}.type`, 'must be "openai" (an OpenAI-compatible server) or "local" (a GGUF file)');
    }
  }

  const models: ModelSpec[] = [];
  for (const [id, value] of Object.entries(raw.models as Record<string, unknown>)) {
    const key = `models.${id}`;
    if (!/^[\x21-\x7e]{1,200}$/.test(id)) fail(key, 'is not a valid model id (1–200 visible ASCII characters, no spaces)');
    const spec: Record<string, unknown> = Array.isArray(value)
      ? { targets: value }
      : isObject(value)
        ? value
        : fail(key, 'must be a list of targets or an object with "targets"');
    allowOnly(spec, ['targets', 'maxTokens', 'ownedBy'], key, fail);
    if (!Array.isArray(spec.targets) || spec.targets.length === 0 || spec.targets.length > MAX_TARGETS) {
      fail(`${key}.targets`, `must list 1 to ${MAX_TARGETS} targets like "openai/gpt-4o-mini"`);
    }
    const targets = (spec.targets as unknown[]).map((target, i): TargetSpec => {
      const at = `${key}.targets[${i}]`;
      if (typeof target !== 'string') return fail(at, 'must be a string "<provider>/<upstream model>"');
      const slash = target.indexOf('/');
      const provider = slash === -1 ? target : target.slice(0, slash);
      const upstream = slash === -1 ? '' : target.slice(slash + 1);
      const providerSpec = providers[provider] ?? fail(at, `names the provider "${provider}", which "providers" does not define`);
      if (providerSpec.type === 'openai' && !upstream) fail(at, `must name the upstream model: "${provider}/<model>"`);
      return { provider, model: upstream || (providerSpec.type === 'local' ? modelNameOf(providerSpec.modelPath) : upstream) };
    });
    const maxTokens = optionalWhole(spec, 'maxTokens', key, 1, 1_000_000, fail) ?? DEFAULT_MODEL_MAX_TOKENS;
    if (spec.ownedBy !== undefined && (typeof spec.ownedBy !== 'string' || !/^.{1,100}$/.test(spec.ownedBy)))
      fail(`${key}.ownedBy`, 'must be a string of 1–100 characters');
    models.push({ id, targets, maxTokens, ownedBy: (spec.ownedBy as string | undefined) ?? targets[0].provider, created: options.created });
  }

  if (raw.default !== undefined && (typeof raw.default !== 'string' || !models.some((m) => m.id === raw.default))) {
    fail('default', `must be the id of one of the models (${models.map((m) => m.id).join(', ')})`);
  }
  return { providers, models, defaultModel: (raw.default as string | undefined) ?? models[0].id };
}

/** A model file's name as a model id: its file name without `.gguf`. */
function modelNameOf(path: string): string {
  return basename(path).replace(/\.gguf$/i, '');
}

function mtimeSeconds(path: string): number {
  try {
    return Math.floor(statSync(path).mtimeMs / 1000);
  } catch {
    return 0;
  }
}

function allowOnly(spec: Record<string, unknown>, fields: string[], key: string, fail: (key: string, problem: string) => never): void {
  for (const field of Object.keys(spec)) if (!fields.includes(field)) fail(`${key}.${field}`, `is not a field here (${fields.join(', ')})`);
}

function optionalWhole(
  spec: Record<string, unknown>,
  field: string,
  key: string,
  min: number,
  max: number,
  fail: (key: string, problem: string) => never,
): number | undefined {
  const value = spec[field];
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) < min || (value as number) > max)
    fail(`${key}.${field}`, `must be a whole number from ${min} to ${max}`);
  return value as number;
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
