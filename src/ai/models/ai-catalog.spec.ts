import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../config/app-config.js';
import { AiCatalogError, DEFAULT_MODEL_MAX_TOKENS, loadAiCatalog, parseProvidersFile } from './ai-catalog.js';

const MODEL_PATH = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'models', 'stories260K.gguf');
const options = { threads: 1, env: { GROQ_KEY: 'gsk-test' }, created: 1_795_300_000 };
const providers = {
  openai: { type: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-test', timeoutMs: 5000 },
  groq: { type: 'openai', baseUrl: 'https://api.groq.com/openai/v1', apiKeyEnv: 'GROQ_KEY' },
  local: { type: 'local', modelPath: MODEL_PATH, threads: 2 },
};

function writeFile(content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'ai-providers-')), 'providers.json');
  writeFileSync(path, content);
  return path;
}

describe('AI_PROVIDERS_FILE', () => {
  it('reads providers, models with ordered targets, and the default', () => {
    const catalog = parseProvidersFile(
      {
        providers,
        models: {
          fast: ['groq/llama-3.1-8b-instant', 'openai/gpt-4o-mini', 'local'],
          smart: { targets: ['openai/meta-llama/Llama-3-8b'], maxTokens: 8192, ownedBy: 'acme' },
        },
        default: 'smart',
      },
      options,
    );
    expect(catalog.providers).toEqual({
      openai: { type: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-test', timeoutMs: 5000 },
      groq: { type: 'openai', baseUrl: 'https://api.groq.com/openai/v1', apiKey: 'gsk-test' },
      local: { type: 'local', modelPath: MODEL_PATH, threads: 2 },
    });
    expect(catalog.models).toEqual([
      {
        id: 'fast',
        targets: [
          { provider: 'groq', model: 'llama-3.1-8b-instant' },
          { provider: 'openai', model: 'gpt-4o-mini' },
          { provider: 'local', model: 'stories260K' },
        ],
        maxTokens: DEFAULT_MODEL_MAX_TOKENS,
        ownedBy: 'groq',
        created: 1_795_300_000,
      },
      // Split at the first slash: the upstream model may hold more.
      { id: 'smart', targets: [{ provider: 'openai', model: 'meta-llama/Llama-3-8b' }], maxTokens: 8192, ownedBy: 'acme', created: 1_795_300_000 },
    ]);
    expect(catalog.defaultModel).toBe('smart');
    expect(parseProvidersFile({ providers, models: { a: ['local'], b: ['local'] } }, options).defaultModel).toBe('a');
  });

  it.each([
    ['(the file) must be a JSON object with "providers" and "models"', []],
    ['defaults is not a field (providers, models, default)', { providers, models: { a: ['local'] }, defaults: 'a' }],
    ['providers must be an object naming at least one provider', { providers: {}, models: { a: ['local'] } }],
    ['models must be an object naming at least one model', { providers, models: {} }],
    ['providers.OpenAI is not a valid provider name', { providers: { OpenAI: providers.openai }, models: { a: ['OpenAI/x'] } }],
    [
      'providers.x.type must be "openai" (an OpenAI-compatible server) or "local" (a GGUF file)',
      { providers: { x: { type: 'anthropic' } }, models: { a: ['x/y'] } },
    ],
    ['providers.x.baseUrl must be an http(s) URL', { providers: { x: { type: 'openai', baseUrl: 'ftp://x' } }, models: { a: ['x/y'] } }],
    [
      'providers.x.apiKeyEnv names NOPE, which is not set',
      { providers: { x: { type: 'openai', baseUrl: 'http://x', apiKeyEnv: 'NOPE' } }, models: { a: ['x/y'] } },
    ],
    ['providers.x.key is not a field here', { providers: { x: { type: 'openai', baseUrl: 'http://x', key: 'k' } }, models: { a: ['x/y'] } }],
    [
      'providers.x.timeoutMs must be a whole number from 1 to 3600000',
      { providers: { x: { type: 'openai', baseUrl: 'http://x', timeoutMs: 0 } }, models: { a: ['x/y'] } },
    ],
    ['providers.x.modelPath names no file (/nowhere.gguf)', { providers: { x: { type: 'local', modelPath: '/nowhere.gguf' } }, models: { a: ['x'] } }],
    ['models.a.targets must list 1 to 10 targets', { providers, models: { a: [] } }],
    ['models.a.targets[0] names the provider "grok", which "providers" does not define', { providers, models: { a: ['grok/x'] } }],
    ['models.a.targets[0] must name the upstream model: "openai/<model>"', { providers, models: { a: ['openai'] } }],
    ['models.has space is not a valid model id', { providers, models: { 'has space': ['local'] } }],
    ['models.a.maxTokens must be a whole number from 1 to 1000000', { providers, models: { a: { targets: ['local'], maxTokens: 0 } } }],
    ['default must be the id of one of the models (a)', { providers, models: { a: ['local'] }, default: 'b' }],
  ])('refuses a file where %s', (problem, raw) => {
    expect(() => parseProvidersFile(raw, options)).toThrow(AiCatalogError);
    expect(() => parseProvidersFile(raw, options)).toThrow(`AI_PROVIDERS_FILE: ${problem}`);
  });

  it('stops the start with one line naming the problem (loadConfig)', () => {
    const bad = writeFile(JSON.stringify({ providers, models: { fast: ['groq/x', 'grok/y'] } }));
    expect(() => loadConfig({ AI_PROVIDERS_FILE: bad, GROQ_KEY: 'gsk' })).toThrow(
      new ConfigError('Invalid configuration: AI_PROVIDERS_FILE: models.fast.targets[1] names the provider "grok", which "providers" does not define'),
    );
    expect(() => loadConfig({ AI_PROVIDERS_FILE: writeFile('{ not json') })).toThrow(/^Invalid configuration: AI_PROVIDERS_FILE .* could not be read as JSON/);
    expect(() => loadConfig({ AI_PROVIDERS_FILE: bad, AI_PROVIDER: 'local' })).toThrow(
      new ConfigError('Invalid configuration: set AI_PROVIDERS_FILE or AI_PROVIDER (the single-provider settings), not both'),
    );
    // The file's apiKeyEnv reads the environment the configuration is read from.
    const good = writeFile(JSON.stringify({ providers: { groq: providers.groq }, models: { fast: ['groq/x'] } }));
    expect(loadConfig({ AI_PROVIDERS_FILE: good, GROQ_KEY: 'gsk-from-env' }).aiCatalog?.providers.groq).toMatchObject({ apiKey: 'gsk-from-env' });
    expect(() => loadConfig({ AI_PROVIDERS_FILE: good })).toThrow(/apiKeyEnv names GROQ_KEY, which is not set/);
  });

  it('makes one model of the single-provider settings, and none without AI', () => {
    const settings = { AI_THREADS: 1 };
    expect(loadAiCatalog(settings, {})).toBeNull();
    expect(loadAiCatalog({ ...settings, AI_PROVIDER: 'openai', AI_BASE_URL: 'http://127.0.0.1:1/v1', AI_MODEL: 'gpt-x', AI_API_KEY: 'sk' }, {})).toEqual({
      providers: { openai: { type: 'openai', baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'sk' } },
      models: [{ id: 'gpt-x', targets: [{ provider: 'openai', model: 'gpt-x' }], maxTokens: DEFAULT_MODEL_MAX_TOKENS, ownedBy: 'openai', created: 0 }],
      defaultModel: 'gpt-x',
    });
    const local = loadAiCatalog({ ...settings, AI_PROVIDER: 'local', AI_MODEL_PATH: MODEL_PATH }, {});
    expect(local?.models[0]).toMatchObject({ id: 'stories260K', targets: [{ provider: 'local', model: 'stories260K' }], ownedBy: 'local' });
    expect(local?.models[0].created).toBeGreaterThan(0);
    expect(() => loadAiCatalog({ ...settings, AI_PROVIDER: 'openai' }, {})).toThrow('AI_PROVIDER=openai needs AI_BASE_URL and AI_MODEL');
    expect(() => loadAiCatalog({ ...settings, AI_PROVIDER: 'local', AI_MODEL_PATH: '/no/such.gguf' }, {})).toThrow('AI_MODEL_PATH: no file at /no/such.gguf');
  });
});
