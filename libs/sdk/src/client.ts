import { deployDirectory, sha256Hex } from './deploy-directory.js';
import type { DeployDirectoryOptions, DeployDirectoryResult } from './deploy-directory.js';
import { ConnectionError, errorFor, PlatformError } from './errors.js';
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];
export type App = Schemas['AppDto'];
export type Deployment = Schemas['DeploymentDto'];
export type EnvVar = Schemas['EnvVarDto'];
export type LogLine = Schemas['LogLineDto'];
export type DeployResult = Schemas['DeployResultDto'];
export type User = Schemas['UserDto'];
export type ApiKey = Schemas['ApiKeyDto'];
export type CreatedApiKey = Schemas['CreatedApiKeyDto'];
export type WebhookEndpoint = Schemas['WebhookEndpointDto'];
export type CreatedWebhookEndpoint = Schemas['CreatedWebhookEndpointDto'];
export type Generation = Schemas['GenerationDto'];
export type WebhookDelivery = Schemas['WebhookDeliveryDto'];
export type WebhookAttempt = Schemas['WebhookAttemptDto'];
export type Recovered = Schemas['RecoveredDto'];
export type DomainEventRecord = Schemas['EventDto'];
export type TokenResponse = Schemas['TokenResponseDto'];
export type CreateApp = Schemas['CreateAppDto'];
export type UpdateApp = Schemas['UpdateAppDto'];
export type Publish = Schemas['PublishDto'];
export type CatalogEntry = Schemas['CatalogEntryDto'];
export type Split = Schemas['SplitDto'];
export type SplitResults = Schemas['SplitResultsDto'];
export type SplitVariant = Schemas['SplitVariantInputDto'];
export type Domain = Schemas['DomainDto'];
export type CreateDomain = Schemas['CreateDomainDto'];
export type Member = Schemas['MemberDto'];
export type Role = Member['role'];
export type Invitation = Schemas['InvitationDto'];
/** A pending invitation (GET /v1/members/invitations). Written out until the generated types have its schema (`PendingInvitationDto`). */
export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  /** The member who sent it; null: a credential no member created. */
  invitedBy: string | null;
  emailed: boolean;
  createdAt: string;
  expiresAt: string;
}
export type AuditEntry = Schemas['AuditEntryDto'];
export type SsoSettings = Schemas['SsoSettingsDto'];
export type SsoConfig = Schemas['PutSsoDto'];

export type AnalyticsMetric = 'visitors' | 'visits' | 'pageviews' | 'bounceRate' | 'visitDuration' | 'signups' | 'conversionRate' | 'events';
/** `event` is a custom event's name, `props.<key>` one of its properties. */
export type AnalyticsProperty =
  'page' | 'referrer' | 'source' | 'utmCampaign' | 'browser' | 'os' | 'device' | 'deployment' | 'country' | 'event' | `props.${string}`;
/** Goal rows (`breakdown(appId, 'goal')`): `{ goal, visitors, events, conversionRate }`. */
export type AnalyticsBreakdownProperty = AnalyticsProperty | 'goal';
export type Goal = Schemas['GoalDto'];
export type CreateGoal = Schemas['CreateGoalDto'];
export type AnalyticsShare = Schemas['AnalyticsShareDto'];
export type CreateAnalyticsShare = Schemas['CreateAnalyticsShareDto'];
/** `analytics.export`: the ZIP's bytes and its name (`<slug>-analytics-<from>-to-<to>.zip`). */
export interface AnalyticsExport {
  fileName: string;
  bytes: Uint8Array;
}
/** The calling member's e-mail reports of an app: `{ weekly, monthly }`. */
export type ReportSwitches = Schemas['ReportSwitchesDto'];
export interface AnalyticsQuery {
  /** `day`, `7d`, `30d` (default), `month`, `12mo`, or `custom` with `from`/`to` (YYYY-MM-DD, inclusive, UTC). */
  period?: 'day' | '7d' | '30d' | 'month' | '12mo' | 'custom';
  from?: string;
  to?: string;
  metrics?: AnalyticsMetric[];
  /** All must hold, e.g. `{ page: '/pricing', device: 'mobile' }`. */
  filters?: Partial<Record<AnalyticsProperty, string>>;
}
export type AnalyticsRow = Record<string, string | number>;
export type Billing = Schemas['BillingDto'];
export type Statement = Schemas['StatementDto'];
export type CreateWebhookEndpoint = Schemas['CreateWebhookEndpointDto'];
export type UpdateWebhookEndpoint = Schemas['UpdateWebhookEndpointDto'];
export type GenerateRequest = Omit<Schemas['GenerateDto'], 'stream'>;
// OpenAI's shapes (the gateway's routes take and answer them as OpenAI documents them), written out here so that the
// SDK needs no `openai` package.
export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  /** A string, or content parts (`{ type: 'text', text }`; images and others with an upstream that takes them). */
  content: string | Array<{ type: string; [field: string]: unknown }> | null;
  name?: string;
  tool_call_id?: string;
  tool_calls?: unknown[];
}
/** OpenAI's Chat Completions request (`POST /v1/chat/completions`); streaming is chosen by the method called. */
export interface ChatCompletionRequest {
  /** A model of `ai.models()`. */
  model: string;
  messages: ChatMessage[];
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  stop?: string | string[];
  n?: number;
  seed?: number;
  user?: string;
  /** OpenAI's other fields (tools, response_format…), passed on to an OpenAI-compatible upstream. */
  [field: string]: unknown;
}
export interface TokenCounts {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}
export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{ index: number; message: { role: 'assistant'; content: string | null; tool_calls?: unknown[] }; finish_reason: string }>;
  usage: TokenCounts;
}
export interface Model {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}
export interface EmbeddingsRequest {
  model: string;
  input: string | string[];
  /** `float` (the default here) or `base64` (little-endian float32 bytes). */
  encoding_format?: 'float' | 'base64';
  dimensions?: number;
  user?: string;
}
export interface Embeddings {
  object: 'list';
  model: string;
  data: Array<{ object: 'embedding'; index: number; embedding: number[] }>;
  usage: { prompt_tokens: number; total_tokens: number };
}
/** One `chat.completion.chunk` of a streamed chat completion (OpenAI's shape). */
export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{ index: number; delta: { role?: 'assistant'; content?: string | null; tool_calls?: unknown[] }; finish_reason: string | null }>;
  /** On the last chunk only (no choices): the call's tokens. */
  usage?: TokenCounts | null;
}
export type LandingPage = Schemas['LandingPageDto'];
export type LandingPageState = Schemas['LandingPageResponseDto'];
export type GenerateLandingPage = Schemas['GenerateLandingPageDto'];
export type UploadedFile = Schemas['FileDto'];
export type SiteConfig = Schemas['SiteConfigDto'];
export type PortalInvite = Schemas['PortalInviteDto'];

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export interface ClientOptions {
  apiKey?: string;
  accessToken?: string;
  /** Default http://localhost:3000 (the /v1 is added). */
  baseUrl?: string;
  /** Per request, default 60 000. */
  timeoutMs?: number;
  /** Retries on 429, 5xx and network errors, default 3. */
  maxRetries?: number;
  /** Backoff base in ms (doubles per retry, with jitter), default 500. */
  retryBaseMs?: number;
  /** Supplies a bearer token per request (e.g. `client.oauth.clientCredentials(...)`). */
  tokenProvider?: { token(): Promise<string> };
  fetch?: typeof fetch;
}

interface RequestOptions {
  body?: unknown;
  /** Sent as is, `application/octet-stream` (file uploads), instead of a JSON `body`. */
  bytes?: Uint8Array;
  query?: Record<string, string | number | undefined | null>;
  idempotencyKey?: string;
  stream?: boolean;
  /** The path is outside `/v1` (served pages such as `/catalog`). */
  unversioned?: boolean;
  /** Instead of the request timeout (a stream that follows: log lines). */
  signal?: AbortSignal;
}

const RETRYABLE = new Set([429, 500, 502, 503, 504]);
const MAX_RETRY_AFTER_MS = 120_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** HTTP with retries (exponential backoff with jitter, Retry-After honoured) and idempotency keys on POST. */
class Transport {
  readonly baseUrl: string;
  private readonly origin: string;

  constructor(private readonly options: ClientOptions) {
    const base = (options.baseUrl ?? 'http://localhost:3000').replace(/\/+$/, '');
    this.origin = base.replace(/\/v1$/, '');
    this.baseUrl = `${this.origin}/v1`;
  }

  async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const response = await this.send(method, path, opts);
    if (opts.stream) return response as unknown as T;
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }

  private async send(method: string, path: string, opts: RequestOptions): Promise<Response> {
    const url = new URL((opts.unversioned ? this.origin : this.baseUrl) + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'platform-sdk-ts/0.1' };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    if (opts.bytes !== undefined) headers['content-type'] = 'application/octet-stream';
    // One key for the call and all its retries: a retried POST never runs twice.
    if (method === 'POST') headers['idempotency-key'] = opts.idempotencyKey ?? crypto.randomUUID();
    const maxRetries = this.options.maxRetries ?? 3;
    const doFetch = this.options.fetch ?? fetch;
    for (let attempt = 0; ; attempt++) {
      const token = this.options.tokenProvider ? await this.options.tokenProvider.token() : (this.options.apiKey ?? this.options.accessToken);
      if (token) headers.authorization = `Bearer ${token}`;
      let delay: number;
      try {
        const response = await doFetch(url, {
          method,
          headers,
          body: opts.bytes !== undefined ? opts.bytes : opts.body === undefined ? undefined : JSON.stringify(opts.body),
          // A follow has no end: only its caller's signal stops it.
          signal: opts.signal ?? AbortSignal.timeout(this.options.timeoutMs ?? 60_000),
        });
        if (response.ok) return response;
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
        const body = await response.json().catch(() => undefined);
        const error = errorFor(response.status, body, response.headers.get('x-request-id') ?? undefined, retryAfter);
        // `x-should-retry: false` (an exhausted AI budget): waiting the few seconds of a retry would not help.
        const hopeless = response.headers.get('x-should-retry') === 'false';
        if (!RETRYABLE.has(response.status) || hopeless || attempt >= maxRetries) throw error;
        delay = retryAfter !== undefined ? retryAfter * 1000 : this.backoff(attempt);
      } catch (err) {
        if (err instanceof PlatformError) throw err;
        if (attempt >= maxRetries) throw new ConnectionError(0, 0, `Could not reach ${this.baseUrl}: ${(err as Error).message}`);
        delay = this.backoff(attempt);
      }
      await sleep(Math.min(delay, MAX_RETRY_AFTER_MS));
    }
  }

  private backoff(attempt: number): number {
    const ceiling = (this.options.retryBaseMs ?? 500) * 2 ** attempt;
    return ceiling / 2 + (Math.random() * ceiling) / 2;
  }
}

function parseRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

async function* paginate<T>(
  t: Transport,
  path: string,
  query: Record<string, string | number | undefined>,
  opts: Pick<RequestOptions, 'unversioned'> = {},
): AsyncGenerator<T> {
  let cursor: string | null = null;
  do {
    const page: Page<T> = await t.request<Page<T>>('GET', path, { query: { ...query, cursor }, ...opts });
    yield* page.data;
    cursor = page.nextCursor;
  } while (cursor);
}

const id = (value: string) => encodeURIComponent(value);

/** The stats API's query string: metrics comma-separated, filters as `property==value;…`. */
function statsQuery(query: AnalyticsQuery): Record<string, string | undefined> {
  const filters = Object.entries(query.filters ?? {}).map(([property, value]) => `${property}==${value}`);
  return { period: query.period, from: query.from, to: query.to, metrics: query.metrics?.join(','), filters: filters.length ? filters.join(';') : undefined };
}

/** Fetches an OAuth access token (client credentials) and refreshes it before it expires. */
export class ClientCredentialsTokenProvider {
  private current?: { token: string; refreshAt: number };
  private pending?: Promise<string>;

  constructor(
    private readonly baseUrl: string,
    private readonly clientId: string,
    private readonly clientSecret: string,
    private readonly scope?: string,
    private readonly doFetch: typeof fetch = fetch,
  ) {}

  async token(): Promise<string> {
    if (this.current && Date.now() < this.current.refreshAt) return this.current.token;
    this.pending ??= this.fetchToken().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async fetchToken(): Promise<string> {
    const form = new URLSearchParams({ grant_type: 'client_credentials', ...(this.scope ? { scope: this.scope } : {}) });
    const response = await this.doFetch(`${this.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${this.clientId}:${this.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: form,
    });
    const body = (await response.json().catch(() => undefined)) as TokenResponse | undefined;
    if (!response.ok || !body) throw errorFor(response.status, body, response.headers.get('x-request-id') ?? undefined);
    // Refresh a minute early, or at 90 % of a short lifetime.
    const lifetimeMs = body.expires_in * 1000;
    this.current = { token: body.access_token, refreshAt: Date.now() + lifetimeMs - Math.min(60_000, lifetimeMs / 10) };
    return body.access_token;
  }
}

/** `new PlatformClient({ apiKey: 'sk_…', baseUrl: 'http://localhost:3000' })` */
export class PlatformClient {
  private readonly t: Transport;

  constructor(options: ClientOptions = {}) {
    this.t = new Transport(options);
    const t = this.t;
    const base = this.t.baseUrl;

    this.apps = {
      list: (opts: { limit?: number } = {}) => paginate<App>(t, '/apps', { limit: opts.limit ?? 100 }),
      create: (body: CreateApp, opts: { idempotencyKey?: string } = {}) => t.request<App>('POST', '/apps', { body, ...opts }),
      get: (appId: string) => t.request<App>('GET', `/apps/${id(appId)}`),
      update: (appId: string, body: UpdateApp) => t.request<App>('PATCH', `/apps/${id(appId)}`, { body }),
      delete: (appId: string) => t.request<void>('DELETE', `/apps/${id(appId)}`),
      /** Points the app's public address at a deployment (default: the newest production one). Publishing an older one is a rollback. */
      publish: (appId: string, body: Publish = {}, opts: { idempotencyKey?: string } = {}) =>
        t.request<App>('POST', `/apps/${id(appId)}/publish`, { body, ...opts }),
      /** Takes the public address down (410); deployment urls keep working. */
      unpublish: (appId: string, opts: { idempotencyKey?: string } = {}) => t.request<App>('POST', `/apps/${id(appId)}/unpublish`, { body: {}, ...opts }),
    };
    this.domains = {
      /**
       * Claims a host name for the app. The answer holds the two records to create: `verification` (TXT, proves
       * control of the name) and `target` (CNAME, sends its visitors here). 400 names what is wrong with the name.
       */
      create: (appId: string, body: CreateDomain, opts: { idempotencyKey?: string } = {}) =>
        t.request<Domain>('POST', `/apps/${id(appId)}/domains`, { body, ...opts }),
      list: (appId: string, opts: { limit?: number } = {}) => paginate<Domain>(t, `/apps/${id(appId)}/domains`, { limit: opts.limit ?? 100 }),
      get: (domainId: string) => t.request<Domain>('GET', `/domains/${id(domainId)}`),
      /**
       * Checks the DNS now: `status: 'verified'` once the TXT record holds the value; otherwise the domain as it was,
       * with `lastCheck` saying what was found. Another account verified the name first: a ConflictError (409).
       */
      verify: (domainId: string, opts: { idempotencyKey?: string } = {}) => t.request<Domain>('POST', `/domains/${id(domainId)}/verify`, opts),
      /** Gives the name up: it stops serving the app at once. */
      delete: (domainId: string) => t.request<void>('DELETE', `/domains/${id(domainId)}`),
    };
    this.splits = {
      /**
       * Starts a split test: the published address serves each visitor one of 2–4 production deployments, by weight
       * (1–99, summing to 100), chosen from their daily visitor id. A test already running is ended first.
       */
      start: (appId: string, variants: SplitVariant[]) => t.request<Split>('PUT', `/apps/${id(appId)}/split`, { body: { variants } }),
      /** The running test with each variant's visitors, signups, conversionRate and chanceToBeatFirst; NotFoundError when none runs. */
      get: (appId: string) => t.request<SplitResults>('GET', `/apps/${id(appId)}/split`),
      /** Ends the test: the published deployment serves everyone again (publishing any deployment ends it too). */
      end: (appId: string) => t.request<void>('DELETE', `/apps/${id(appId)}/split`),
    };
    this.catalog = {
      /** Published public apps of this server, newest publication first (no credentials needed). */
      list: (opts: { limit?: number } = {}) => paginate<CatalogEntry>(t, '/catalog', { limit: opts.limit ?? 100 }, { unversioned: true }),
    };
    this.deployments = {
      deploy: (body: Schemas['DeployDto'], opts: { idempotencyKey?: string } = {}) => t.request<DeployResult>('POST', '/apps/deploy', { body, ...opts }),
      get: (deploymentId: string) => t.request<Deployment>('GET', `/deployments/${id(deploymentId)}`),
      list: (appId: string, opts: { limit?: number } = {}) => paginate<Deployment>(t, `/apps/${id(appId)}/deployments`, { limit: opts.limit ?? 100 }),
      /** Its server code's log lines (scope apps:read): the newest `limit` (1–1000, default 100) after `since`, oldest first. */
      logs: async (deploymentId: string, opts: { since?: string; limit?: number } = {}) =>
        (await t.request<{ data: LogLine[] }>('GET', `/deployments/${id(deploymentId)}/logs`, { query: opts })).data,
      /** Each new log line as it is written (after `since` when given, else from now on), until `signal` aborts or the loop breaks. */
      followLogs: (deploymentId: string, opts: { since?: string; signal?: AbortSignal } = {}) => followLogs(t, deploymentId, opts),
    };
    this.env = {
      /** Sets a variable or secret of an app environment for its server code (scope deployments:write); a secret's value is never shown again. */
      set: (appId: string, env: string, name: string, value: string, opts: { secret?: boolean } = {}) =>
        t.request<EnvVar>('PUT', `/apps/${id(appId)}/environments/${id(env)}/vars/${id(name)}`, { body: { value, ...opts } }),
      /** The environment's variables by name; secrets without their values. */
      list: async (appId: string, env: string) => (await t.request<{ data: EnvVar[] }>('GET', `/apps/${id(appId)}/environments/${id(env)}/vars`)).data,
      remove: (appId: string, env: string, name: string) => t.request<void>('DELETE', `/apps/${id(appId)}/environments/${id(env)}/vars/${id(name)}`),
    };
    this.users = {
      create: (body: Schemas['CreateUserDto'], opts: { idempotencyKey?: string } = {}) => t.request<User>('POST', '/users', { body, ...opts }),
      list: (opts: { appId?: string; limit?: number } = {}) => paginate<User>(t, '/users', { appId: opts.appId, limit: opts.limit ?? 100 }),
      get: (userId: string) => t.request<User>('GET', `/users/${id(userId)}`),
      delete: (userId: string) => t.request<void>('DELETE', `/users/${id(userId)}`),
    };
    this.landingPage = {
      /** The app's page; `source: 'default'` until one is saved. */
      get: (appId: string) => t.request<LandingPageState>('GET', `/apps/${id(appId)}/landing-page`),
      /** Replaces the page (`source: 'manual'`); the next deploy serves it. */
      put: (appId: string, page: LandingPage) => t.request<LandingPageState>('PUT', `/apps/${id(appId)}/landing-page`, { body: page }),
      /** Has AI write the sections asked for (default all) and saves the page (`source: 'generated'`). */
      generate: (appId: string, body: GenerateLandingPage = {}, opts: { idempotencyKey?: string } = {}) =>
        t.request<LandingPageState>('POST', `/apps/${id(appId)}/landing-page/generate`, { body, ...opts }),
    };
    this.analytics = {
      /** `{ results: { visitors: { value } , … } }` over the period. Scope analytics:read. */
      aggregate: (appId: string, query: AnalyticsQuery = {}) =>
        t.request<Schemas['AggregateResultDto']>('GET', `/apps/${id(appId)}/analytics/aggregate`, { query: statsQuery(query) }),
      /** One row per hour, day or month of the period, zeros included. */
      timeseries: (appId: string, query: AnalyticsQuery & { interval?: 'hour' | 'day' | 'month' } = {}) =>
        t.request<{ results: AnalyticsRow[] }>('GET', `/apps/${id(appId)}/analytics/timeseries`, {
          query: { ...statsQuery(query), interval: query.interval },
        }),
      /**
       * Rows keyed by the property, most visitors first; follows nextCursor for you. `goal: 'Download'` makes a goal the
       * funnel's step instead of sign-up: `signups` are its unique converting visitors, `conversionRate` their share.
       */
      breakdown: (appId: string, property: AnalyticsBreakdownProperty, query: AnalyticsQuery & { limit?: number; goal?: string } = {}) =>
        paginate<AnalyticsRow>(t, `/apps/${id(appId)}/analytics/breakdown`, { ...statsQuery(query), property, limit: query.limit ?? 100, goal: query.goal }),
      /** Visitors in the last 5 minutes. */
      realtime: (appId: string) => t.request<Schemas['RealtimeDto']>('GET', `/apps/${id(appId)}/analytics/realtime`),
      // Export and shared dashboards (issue 47).
      /** The period's tables as a ZIP of CSV files (`visitors.csv`, `pages.csv`, … `properties.csv`): its bytes and the server's file name. */
      export: async (appId: string, query: Omit<AnalyticsQuery, 'metrics'> = {}): Promise<AnalyticsExport> => {
        const response = await t.request<Response>('GET', `/apps/${id(appId)}/analytics/export`, { query: statsQuery(query), stream: true });
        const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'analytics.zip';
        return { fileName, bytes: new Uint8Array(await response.arrayBuffer()) };
      },
      /** Shared dashboards: read-only links to the app's analytics (`url`), optionally behind a password (scope apps:write; list: apps:read). */
      shares: {
        create: (appId: string, body: CreateAnalyticsShare) => t.request<AnalyticsShare>('POST', `/apps/${id(appId)}/analytics/shares`, { body }),
        list: async (appId: string) => (await t.request<{ data: AnalyticsShare[] }>('GET', `/apps/${id(appId)}/analytics/shares`)).data,
        /** The link answers 404 from the next request on. */
        delete: (appId: string, shareId: string) => t.request<void>('DELETE', `/apps/${id(appId)}/analytics/shares/${id(shareId)}`),
      },
    };
    this.goals = {
      /** `{ event: 'Download' }` or `{ page: '/blog/*' }` (scope apps:write); a duplicate or the 51st → 409. Counted by `analytics.breakdown(appId, 'goal')`. */
      create: (appId: string, body: CreateGoal) => t.request<Goal>('POST', `/apps/${id(appId)}/goals`, { body }),
      /** All of the app's goals, oldest first (Sign-up, built in, is not listed). */
      list: async (appId: string) => (await t.request<{ data: Goal[] }>('GET', `/apps/${id(appId)}/goals`)).data,
      delete: (appId: string, goalId: string) => t.request<void>('DELETE', `/apps/${id(appId)}/goals/${id(goalId)}`),
    };
    // E-mail reports of analytics (issue 47).
    this.reports = {
      /** Your own weekly and monthly e-mail reports of the app (a member's key or session; others → 403 `report_member_required`). */
      get: (appId: string) => t.request<ReportSwitches>('GET', `/apps/${id(appId)}/analytics/reports`),
      /** Turns your reports of the app on or off; a switch left out stays as it is. Answers them all. */
      set: (appId: string, body: Partial<ReportSwitches>) => t.request<ReportSwitches>('PUT', `/apps/${id(appId)}/analytics/reports`, { body }),
    };
    this.billing = {
      /** The plan and this month's usage of every meter (scope billing:read). */
      get: () => t.request<Billing>('GET', '/billing'),
      /** Monthly statements, newest first (this month's `open`, then `closed` ones); follows nextCursor for you. */
      statements: (opts: { limit?: number } = {}) => paginate<Statement>(t, '/billing/statements', { limit: opts.limit ?? 100 }),
    };
    this.webhookEndpoints = {
      create: (body: CreateWebhookEndpoint) => t.request<CreatedWebhookEndpoint>('POST', '/webhook-endpoints', { body }),
      list: (opts: { limit?: number } = {}) => paginate<WebhookEndpoint>(t, '/webhook-endpoints', { limit: opts.limit ?? 100 }),
      get: (endpointId: string) => t.request<WebhookEndpoint>('GET', `/webhook-endpoints/${id(endpointId)}`),
      update: (endpointId: string, body: UpdateWebhookEndpoint) => t.request<WebhookEndpoint>('PATCH', `/webhook-endpoints/${id(endpointId)}`, { body }),
      delete: (endpointId: string) => t.request<void>('DELETE', `/webhook-endpoints/${id(endpointId)}`),
      rotateSecret: (endpointId: string) => t.request<Schemas['WebhookSecretDto']>('POST', `/webhook-endpoints/${id(endpointId)}/rotate-secret`),
      /** Queues a `webhook.test` event to this endpoint; answers the queued delivery. */
      test: (endpointId: string) => t.request<WebhookDelivery>('POST', `/webhook-endpoints/${id(endpointId)}/test`),
      /** Newest first, each with its payload, attempts (with the next try each scheduled) and, while pending, `nextAttemptAt`; follows nextCursor for you. */
      deliveries: (endpointId: string, opts: { limit?: number } = {}) =>
        paginate<WebhookDelivery>(t, `/webhook-endpoints/${id(endpointId)}/deliveries`, { limit: opts.limit ?? 100 }),
      /** One more attempt now (`ConflictError` while one is under way). */
      retryDelivery: (deliveryId: string) => t.request<WebhookDelivery>('POST', `/webhook-deliveries/${id(deliveryId)}/retry`),
      /** Re-sends every failed delivery of the endpoint whose event was raised at or after `since` (within 14 days), oldest first. */
      recover: (endpointId: string, since: Date | string) =>
        t.request<Recovered>('POST', `/webhook-endpoints/${id(endpointId)}/recover`, {
          body: { since: since instanceof Date ? since.toISOString() : since },
        }),
    };
    this.events = {
      list: (opts: { kind?: string; limit?: number } = {}) => paginate<DomainEventRecord>(t, '/events', { kind: opts.kind, limit: opts.limit ?? 100 }),
      get: (eventId: string) => t.request<DomainEventRecord>('GET', `/events/${id(eventId)}`),
    };
    this.ai = {
      generate: (body: GenerateRequest) => t.request<Generation>('POST', '/ai/generate', { body: { ...body, stream: false } }),
      stream: (body: GenerateRequest) => streamText(t, body),
      /** Daily token totals of the caller's account (scope analytics:read); dates as YYYY-MM-DD, UTC. */
      usage: (opts: { from?: string; to?: string } = {}) => t.request<Schemas['UsageDto']>('GET', '/ai/usage', { query: opts }),
      /**
       * OpenAI's chat completion on a model of `models()` (scope ai:generate). The official `openai` packages work
       * against the same route (`baseURL: <server>/v1`); this is for code that already uses this client.
       */
      chat: (body: ChatCompletionRequest) => t.request<ChatCompletion>('POST', '/chat/completions', { body: { ...body, stream: false } }),
      /**
       * The same, streamed: an async iterator of `chat.completion.chunk` objects; the last one carries `usage` (and no
       * choices). A failure after the first chunk throws (no retry: the answer had started).
       */
      chatStream: (body: ChatCompletionRequest) => streamChunks(t, body),
      /** The models the server offers (`GET /v1/models`): their `id` is what `chat` and `embeddings` take as `model`. */
      models: async () => (await t.request<{ object: 'list'; data: Model[] }>('GET', '/models')).data,
      /** OpenAI's embeddings of one text or several (`POST /v1/embeddings`), as arrays of numbers. */
      embeddings: (body: EmbeddingsRequest) => t.request<Embeddings>('POST', '/embeddings', { body }),
    };
    this.apiKeys = {
      create: (body: Schemas['CreateApiKeyDto']) => t.request<CreatedApiKey>('POST', '/api-keys', { body }),
      list: async () => (await t.request<{ data: ApiKey[] }>('GET', '/api-keys')).data,
      revoke: (keyId: string) => t.request<void>('DELETE', `/api-keys/${id(keyId)}`),
    };
    this.members = {
      /** The people who sign in to the account's portal, with their roles (scope members:read); follows nextCursor for you. */
      list: (opts: { limit?: number } = {}) => paginate<Member>(t, '/members', { limit: opts.limit ?? 100 }),
      /**
       * Invites a member (scope members:write): the link works once, for this e-mail, 7 days. `invitationUrl` is set
       * (once) when the server did not e-mail it. Never an owner: only an owner signed in to the portal invites one
       * (AuthError `owner_member_required`). At most 3 invitation e-mails to an address per 15 minutes (RateLimitError
       * `invitation_mail_limit`).
       */
      invite: (body: { email: string; role: Role }) => t.request<Invitation>('POST', '/members/invitations', { body }),
      /** The pending invitations (neither used, revoked nor expired), newest first (scope members:read), never their link; follows nextCursor for you. */
      invitations: (opts: { limit?: number } = {}) => paginate<PendingInvitation>(t, '/members/invitations', { limit: opts.limit ?? 100 }),
      /** Revokes a pending invitation (scope members:write): its link opens nothing from then on. Used, expired or revoked already: NotFoundError. */
      revokeInvitation: (invitationId: string) => t.request<void>('DELETE', `/members/invitations/${id(invitationId)}`),
      /**
       * Changes a member's role: their keys, service accounts and invitations follow it at once. Making or demoting an
       * owner is for an owner signed in to the portal (AuthError `owner_member_required`).
       */
      changeRole: (memberId: string, role: Role) => t.request<Member>('PATCH', `/members/${id(memberId)}`, { body: { role } }),
      /**
       * Removes a member: their sessions end; the keys and service accounts they created and the invitations they sent
       * are revoked. Removing an owner is for an owner signed in to the portal (`owner_member_required`).
       */
      remove: (memberId: string) => t.request<void>('DELETE', `/members/${id(memberId)}`),
    };
    this.auditLog = {
      /** Who did what, newest first, kept 400 days (scope audit:read); filter by action, actor id and time; follows nextCursor for you. */
      list: (opts: { action?: string; actor?: string; from?: Date | string; to?: Date | string; limit?: number } = {}) =>
        paginate<AuditEntry>(t, '/audit-log', {
          action: opts.action,
          actor: opts.actor,
          from: opts.from instanceof Date ? opts.from.toISOString() : opts.from,
          to: opts.to instanceof Date ? opts.to.toISOString() : opts.to,
          limit: opts.limit ?? 100,
        }),
    };
    this.sso = {
      /** The account's OpenID Connect single sign-on (scope members:read); never the client secret. Not set up: NotFoundError. */
      get: () => t.request<SsoSettings>('GET', '/sso'),
      /**
       * @deprecated Refused to every API key and access token (AuthError `owner_member_required`, 403): an owner changes
       * single sign-on signed in to the portal. Kept so that the answer says so.
       */
      configure: (body: SsoConfig) => t.request<SsoSettings>('PUT', '/sso', { body }),
      /**
       * @deprecated Refused to every API key and access token (AuthError `owner_member_required`, 403): an owner turns
       * single sign-on off signed in to the portal (or the operator, with the admin token).
       */
      remove: () => t.request<void>('DELETE', '/sso'),
      /**
       * Checks an SSO domain's TXT record (`domainProofs[].verification`) now (scope members:write); answers the settings,
       * the domain `verified` once the record holds the value: only then do its sign-ins go to the provider. Another
       * account proved it first: ConflictError `sso_domain_taken`; not one of the settings' domains: NotFoundError.
       */
      verifyDomain: (domain: string) => t.request<SsoSettings>('POST', `/sso/domains/${id(domain)}/verify`),
    };
    this.admin = {
      /**
       * Operator routes: the client's key is the admin token (ADMIN_TOKEN). A new portal invite for the account
       * (single use, 7 days, shown once); its earlier unused invite links stop working. Unknown account: NotFoundError.
       */
      reissueInvite: (accountId: string) => t.request<PortalInvite>('POST', `/admin/accounts/${id(accountId)}/invite`),
      /**
       * Turns the account's single sign-on off: the way back in when every owner is locked out (no key of the account
       * may). Not set up, or no such account: NotFoundError.
       */
      removeSso: (accountId: string) => t.request<void>('DELETE', `/admin/accounts/${id(accountId)}/sso`),
    };
    this.oauth = {
      clientCredentials: (clientId: string, clientSecret: string, scope?: string) =>
        new ClientCredentialsTokenProvider(base, clientId, clientSecret, scope, options.fetch),
    };
  }

  /**
   * Uploads one file for deploys (`PUT /v1/files/<sha256>`, raw bytes): the hash is computed here unless given.
   * Stored once per account: uploading a file the account has is a 200 that writes nothing.
   */
  async uploadFile(content: Uint8Array, sha256?: string): Promise<UploadedFile> {
    const hash = sha256 ?? sha256Hex(content);
    return this.t.request<UploadedFile>('PUT', `/files/${hash}`, { bytes: content });
  }

  /**
   * Deploys a folder (a web app's build output) with its landing page: hashes every file (streaming), asks the
   * server which it lacks by deploying (a 400 `files_missing` lists them), uploads exactly those (concurrently,
   * each once, with retries), deploys again, and publishes when asked. See DeployDirectoryOptions.
   */
  deployDirectory(dir: string, options: DeployDirectoryOptions): Promise<DeployDirectoryResult> {
    return deployDirectory(this, dir, options);
  }

  readonly apps;
  readonly domains;
  readonly splits;
  readonly catalog;
  readonly deployments;
  /** Environment variables and secrets of app environments, for their server code (from the next deploy). */
  readonly env;
  readonly landingPage;
  readonly analytics;
  readonly goals;
  /** Your e-mail reports of an app (weekly on Mondays, monthly on the 1st). */
  readonly reports;
  readonly billing;
  readonly users;
  readonly webhookEndpoints;
  readonly events;
  readonly ai;
  readonly apiKeys;
  readonly members;
  readonly auditLog;
  readonly sso;
  readonly oauth;
  readonly admin;
}

/** The `data:` payloads of a server-sent event stream, parsed as JSON, up to `[DONE]`. */
async function* sseData<T>(response: Response): AsyncGenerator<T> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(bytes, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).trimEnd();
      buffer = buffer.slice(newline + 1);
      if (!line.startsWith('data:')) continue;
      const payload = line.slice(5).trim();
      if (payload === '[DONE]') return;
      yield JSON.parse(payload) as T;
    }
  }
}

/** The chunks of a streamed chat completion (with the usage chunk at the end); an `{"error": …}` event throws. */
async function* streamChunks(t: Transport, body: ChatCompletionRequest): AsyncGenerator<ChatCompletionChunk> {
  const response = await t.request<Response>('POST', '/chat/completions', {
    body: { ...body, stream: true, stream_options: { include_usage: true } },
    stream: true,
  });
  for await (const event of sseData<ChatCompletionChunk & { error?: { message?: string; code?: string } }>(response)) {
    if (event.error) {
      const status = event.error.code === 'timeout' ? 504 : 502;
      throw errorFor(status, { error: true, code: status, message: event.error.message, reason: event.error.code });
    }
    yield event;
  }
}

/** A deployment's log lines as they are written (`?follow=true`), until `signal` aborts. */
async function* followLogs(t: Transport, deploymentId: string, opts: { since?: string; signal?: AbortSignal }): AsyncGenerator<LogLine> {
  const response = await t.request<Response>('GET', `/deployments/${id(deploymentId)}/logs`, {
    query: { follow: 'true', since: opts.since },
    stream: true,
    signal: opts.signal ?? new AbortController().signal,
  });
  try {
    yield* sseData<LogLine>(response);
  } catch (err) {
    if (!opts.signal?.aborted) throw err;
  } finally {
    await response.body?.cancel().catch(() => undefined);
  }
}

export interface StreamResult {
  finishReason?: string;
  usage?: Schemas['TokenUsageDto'];
}

/** An async iterator of text chunks; `.result` holds the final finishReason and usage once it ends. */
function streamText(t: Transport, body: GenerateRequest): AsyncIterable<string> & { result: StreamResult } {
  const result: StreamResult = {};
  return {
    result,
    async *[Symbol.asyncIterator]() {
      const response = await t.request<Response>('POST', '/ai/generate', { body: { ...body, stream: true }, stream: true });
      type Event = { text?: string; finishReason?: string; usage?: StreamResult['usage']; error?: unknown; code?: number };
      for await (const event of sseData<Event>(response)) {
        if (typeof event.text === 'string') yield event.text;
        else if (event.error) throw errorFor(event.code ?? 502, event);
        else Object.assign(result, { finishReason: event.finishReason, usage: event.usage });
      }
    },
  };
}
