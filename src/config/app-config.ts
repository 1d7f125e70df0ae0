import { plainToInstance, Transform } from 'class-transformer';
import type { Reader, Response } from 'maxmind';
import { isIP } from 'node:net';
import { loadPlans, Plan, PlansFileError } from '../billing/plans.js';
import { type AiCatalog, AiCatalogError, loadAiCatalog } from '../ai/models/ai-catalog.js';
import { GeoIpDatabaseError, openGeoIpDatabase } from '../analytics/geoip-database.js';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength, validateSync } from 'class-validator';
import { DURATION_PATTERN, parseDuration, parseDurations } from './durations.js';
import { sitesDomainProblem } from './sites-domain.js';
import { StartupError } from './startup-errors.js';

// Digits only ("1e3", "0x10", " " and "1.5" stay strings, so the validator names the variable).
const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : /^\d+$/.test(String(value)) ? Number(value) : value);
const toBool = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  if (value === 'true' || value === '1' || value === true) return true;
  if (value === 'false' || value === '0' || value === false) return false;
  return value; // left as is so the validator names the variable
};

/** A whole-number variable, with one message saying what it accepts whichever of its checks fails. */
function WholeNumber(min: number, max?: number): PropertyDecorator {
  return (target, key) => {
    const message = `${String(key)} must be a whole number ${max === undefined ? `of at least ${min}` : `from ${min} to ${max}`}`;
    Transform(toInt)(target, key);
    IsInt({ message })(target, key);
    Min(min, { message })(target, key);
    if (max !== undefined) Max(max, { message })(target, key);
  };
}

/** A true/false variable (also 1/0). */
function Flag(): PropertyDecorator {
  return (target, key) => {
    Transform(toBool)(target, key);
    IsBoolean({ message: `${String(key)} must be true or false` })(target, key);
  };
}
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/** `1.2.3.4`, `1.2.3.4:53`, `[2001:db8::1]`, `[2001:db8::1]:53` (what node:dns's setServers takes), comma-separated. */
const DNS_SERVER = String.raw`(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:.]+\])(?::\d{1,5})?`;
const DNS_SERVER_LIST = new RegExp(`^\\s*${DNS_SERVER}(?:\\s*,\\s*${DNS_SERVER})*\\s*$`);

export type AppRole = 'all' | 'api' | 'worker';

export const DEFAULT_RETRY_OFFSETS_MS = [5 * 60_000, 3_600_000, 24 * 3_600_000];
/** The longest a retry may wait (events are kept 30 days; recover reaches back 14). */
const MAX_RETRY_OFFSET_MS = 7 * 24 * 3_600_000;
const RETRY_SCHEDULE_MESSAGE =
  'WEBHOOK_RETRY_SCHEDULE must be three increasing delays after the first failure, at most 7d, like 5m,1h,24h (units ms, s, m, h, d; a bare number is ms)';

/**
 * Every environment variable the service reads. Validated once at start; a bad value
 * stops the process with a message naming the variable. Names match the env vars.
 */
export class AppConfig {
  @WholeNumber(0, 65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  /** Prefix for every Redis key (queues, rate limits), so several deployments can share one Redis. */
  @Matches(/^[A-Za-z0-9_-]{1,32}$/, { message: 'REDIS_PREFIX must be 1-32 letters, digits, _ or -' })
  REDIS_PREFIX = 'platform';

  @IsString()
  @MinLength(1)
  DATA_DIR = './data';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'ADMIN_TOKEN must be at least 16 characters' })
  ADMIN_TOKEN?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }, { message: 'PUBLIC_URL must be an http(s) URL' })
  PUBLIC_URL?: string;

  /**
   * Behind a proxy: which hops may set X-Forwarded-For (the client IP for rate limits and visitor
   * ids). Unset: the socket address. `true` (every hop), a hop count, or addresses/CIDRs separated
   * by commas (`127.0.0.1,10.0.0.0/8`).
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^(true|\d+|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/, {
    message: 'TRUST_PROXY must be true, a hop count, or addresses/CIDRs separated by commas',
  })
  TRUST_PROXY?: string;

  /**
   * Serve published apps at `<slug>.<SITES_DOMAIN>` (e.g. `example-apps.com`, behind a reverse proxy
   * with a wildcard certificate); their public URL becomes `https://<slug>.<SITES_DOMAIN>/`.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^(?=.{1,200}$)([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, {
    message: 'SITES_DOMAIN must be a lowercase domain name like example-apps.com',
  })
  SITES_DOMAIN?: string;

  /**
   * Bytes of site files (and their gzip and brotli copies) each instance keeps in memory, least
   * recently used out first; a file over an eighth of it is read from storage each time.
   */
  @WholeNumber(0)
  SITE_CACHE_BYTES = 64 * 1024 * 1024;

  /**
   * Bytes of large site files (256 KiB and over, with their compressed copies) each instance keeps on
   * local disk, under the system's temporary folder, and streams from there (the OS's page cache, not
   * the process, holds them in memory); `0`: they are kept in memory as smaller ones.
   */
  @WholeNumber(0)
  SITE_DISK_CACHE_BYTES = 1024 * 1024 * 1024;

  /**
   * Site files larger than this are never compressed on the fly (served as stored); smaller ones get
   * gzip and brotli copies, made by the compression workers at a level chosen by size.
   */
  @WholeNumber(0)
  SITE_COMPRESS_MAX_BYTES = 8 * 1024 * 1024;

  /** Worker threads making compressed copies of site files; `0`: the cores but one (at least one). Never more than the cores but one. */
  @WholeNumber(0, 64)
  SITE_COMPRESS_WORKERS = 0;

  /** Compressions that may wait for a worker; past it, a file is served as it is (or gzip) and offered again at its next read. */
  @WholeNumber(0, 10000)
  SITE_COMPRESS_QUEUE = 16;

  /**
   * The compression workers' CPU priority (Linux nice, 0–19): 19 gives the cores to requests first, so compressed
   * copies wait while the machine is busy; lower makes them land sooner at requests' expense.
   */
  @WholeNumber(0, 19)
  SITE_COMPRESS_NICE = 19;

  /**
   * The resolvers custom-domain checks ask (TXT challenge, CNAME target): a comma list of `host:port`
   * (`10.0.0.2:53,[2001:db8::53]:53`; the port may be left out for 53). Unset: the system's.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(DNS_SERVER_LIST, { message: 'DNS_SERVERS must be a comma list of IP addresses with optional ports, like 10.0.0.2:53,[2001:db8::53]:53' })
  DNS_SERVERS?: string;

  /**
   * Hours a verified custom domain keeps serving after its daily re-check first finds the TXT proof
   * gone (a DNS change being fixed, a provider's outage); then it is `lapsed`: no longer served, no
   * certificate, and another account that proves control takes it.
   */
  @WholeNumber(1, 24 * 30)
  DOMAIN_PROOF_GRACE_HOURS = 72;

  /**
   * `GET /internal/tls/ask` answers per 60 s per client address (the TLS proxy's): past it 429, which the proxy
   * takes as a no. A proxy asks once per new name, so only handshakes for made-up names come near it.
   */
  @WholeNumber(1)
  TLS_ASK_RATE_LIMIT_MAX = 600;

  /**
   * Whether `ask` also says yes to a deployment's own label (`dep-….SITES_DOMAIN`, `<env>--<slug>.SITES_DOMAIN`):
   * only when SITES_DOMAIN has no wildcard certificate and preview links must work over https. Off: a certificate
   * (one of Let's Encrypt's 50 a week per domain) only for published apps and verified custom domains.
   */
  @Flag()
  TLS_ASK_DEPLOYMENT_LABELS = false;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /** `json` (a JSON object per line, for log collectors) or `pretty` (a readable line per message). Unset: pretty on a terminal, JSON otherwise. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(['json', 'pretty'], { message: 'LOG_FORMAT must be json or pretty' })
  LOG_FORMAT?: 'json' | 'pretty';

  @IsIn(['all', 'api', 'worker'])
  APP_ROLE: AppRole = 'all';

  /**
   * Portal and shared-dashboard passwords are hashed with scrypt at N = 2^this (15: about 50 ms a hash; 17, OWASP's
   * recommendation, about 0.3 s and 128 MiB). Each hash records its N: a change applies to passwords set after it.
   */
  @WholeNumber(10, 17)
  PASSWORD_HASH_COST = 15;

  @WholeNumber(1)
  RATE_LIMIT_MAX = 100;

  @WholeNumber(1)
  RATE_LIMIT_AI_MAX = 20;

  /** File uploads (`PUT /v1/files/:sha256`) per 60 s per account: a bucket of their own, not counted in RATE_LIMIT_MAX. */
  @WholeNumber(1)
  RATE_LIMIT_UPLOADS_MAX = 2000;

  /** Portal sign-in and invite attempts per 60 s per client IP (IPv6: per /64). */
  @WholeNumber(1)
  RATE_LIMIT_SIGN_IN_MAX = 20;

  @Flag()
  WEBHOOK_ALLOW_PRIVATE = false;

  /** Allow an SSO issuer on plain http on this machine (127.0.0.1, ::1, localhost) and private addresses: tests and development only. */
  @Flag()
  SSO_ALLOW_INSECURE_LOOPBACK = false;

  /**
   * When the 3 retries of a delivery go, after the first attempt's failure: three increasing
   * durations (`5m,1h,24h`; units ms, s, m, h, d, a bare number is ms), each wait ±10 %.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(new RegExp(`^\\s*${DURATION_PATTERN}\\s*(,\\s*${DURATION_PATTERN}\\s*){2}$`), { message: RETRY_SCHEDULE_MESSAGE })
  WEBHOOK_RETRY_SCHEDULE?: string;

  /** For tests: retries after base, 2×base and 4×base more ms (each ±10 %) instead of WEBHOOK_RETRY_SCHEDULE. */
  @IsOptional()
  @WholeNumber(1)
  WEBHOOK_RETRY_BASE_MS?: number;

  /** An endpoint whose deliveries have kept failing this long, with no success between, is disabled (`5d`; units as above). */
  @Matches(new RegExp(`^${DURATION_PATTERN}$`), { message: 'WEBHOOK_DISABLE_AFTER must be a duration like 5d, 12h or 30s (units ms, s, m, h, d)' })
  WEBHOOK_DISABLE_AFTER = '5d';

  @WholeNumber(1)
  WEBHOOK_TIMEOUT_MS = 10_000;

  /** Deliveries a worker process tries at once (and its most connections to one receiver). */
  @WholeNumber(1, 1000)
  WEBHOOK_CONCURRENCY = 128;

  /**
   * Encrypts webhook signing secrets at rest (AES-256-GCM). Required with PostgreSQL; the embedded
   * default generates one into DATA_DIR/webhook-secret-key.
   */
  @Matches(/^(|.{32,})$/, { message: 'WEBHOOK_SECRET_KEY must be at least 32 characters long' })
  WEBHOOK_SECRET_KEY = '';

  /**
   * Signs sign-up form tokens, portal sessions and CSRF tokens. Required with PostgreSQL (every
   * instance must agree); the embedded default generates one into DATA_DIR/session-secret.
   */
  @Matches(/^(|.{32,})$/, { message: 'SESSION_SECRET must be at least 32 characters long' })
  SESSION_SECRET = '';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(['openai', 'local'])
  AI_PROVIDER?: 'openai' | 'local';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }, { message: 'AI_BASE_URL must be an http(s) URL' })
  AI_BASE_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  AI_API_KEY?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  AI_MODEL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  AI_MODEL_PATH?: string;

  @WholeNumber(1, 64)
  AI_THREADS = 1;

  @WholeNumber(1)
  AI_TIMEOUT_MS = 60_000;

  @Flag()
  AI_REDACT_PII = false;

  /**
   * A JSON file naming AI providers (OpenAI-compatible servers, local GGUF files) and the models
   * offered, each with its ordered fallback targets; instead of AI_PROVIDER and its settings. See
   * docs/api.md, "AI gateway".
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  AI_PROVIDERS_FILE?: string;

  /** Lifetime of OAuth access tokens, in seconds. */
  @WholeNumber(1)
  OAUTH_TOKEN_TTL_SECONDS = 3600;

  /** Raw analytics events (and visits) are kept this long, then dropped a month partition at a time; daily rollups stay. */
  @WholeNumber(1)
  ANALYTICS_RETENTION_DAYS = 400;

  /**
   * An MMDB file (MaxMind GeoLite2/GeoIP2 Country or City, or any with `country_code`) to look up
   * visitors' countries in, instead of the openly licensed database that ships with the project.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  GEOIP_DATABASE?: string;

  /** The largest file `PUT /v1/files/:sha256` takes, in bytes (larger: 413). */
  @WholeNumber(1, 2 ** 31 - 1)
  MAX_FILE_BYTES = 25 * 1024 * 1024;

  /**
   * Where uploaded files are kept. Unset: under DATA_DIR/files. `s3://<bucket>?endpoint=…&region=…&forcePathStyle=true`:
   * an S3-compatible object store (credentials from the standard AWS_* variables), for several instances.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[^?#]*)?(\?[^#]*)?$/, {
    message: 'STORAGE_URL must be s3://<bucket>[/<prefix>]?endpoint=…&region=…&forcePathStyle=true (or unset for DATA_DIR/files)',
  })
  STORAGE_URL?: string;

  /**
   * The S3 region when STORAGE_URL names none (`?region=` wins); unset: `us-east-1`. The AWS SDK's own
   * name, so one value serves the SDK's other readers too.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[a-z0-9-]{1,40}$/, { message: 'AWS_REGION must be a region name like eu-west-1' })
  AWS_REGION?: string;

  /**
   * Where e-mail goes out (password resets): `smtp://user:pass@host:port` (STARTTLS when the server
   * offers it) or `smtps://…` (TLS from the start). Unset: nothing is e-mailed, and the pages that
   * would e-mail say so.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^smtps?:\/\/(?:[^@/?#\s]+@)?[^@/?#:\s]+(?::\d{1,5})?\/?(?:\?[^#\s]*)?$/, {
    message: 'SMTP_URL must be smtp://user:pass@host:port or smtps://user:pass@host:port (user, password and port optional)',
  })
  SMTP_URL?: string;

  /** The From of e-mails: `no-reply@example.com` or `Platform <no-reply@example.com>`; required with SMTP_URL. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^(?:[^\r\n<>"]{0,100} ?<[^\s<>@"]+@[^\s<>@"]+>|[^\s<>@"]+@[^\s<>@"]+)$/, {
    message: 'SMTP_FROM must be an e-mail address, or a name and an address like Platform <no-reply@example.com>',
  })
  SMTP_FROM?: string;

  /**
   * The OS sandbox around each function instance: `bwrap` (bubblewrap: its own namespaces, no network, only its code
   * mounted) or `none` (Deno's permission flags alone). Unset: bwrap where it is installed and works, else none.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(['bwrap', 'none'], { message: 'FUNCTIONS_SANDBOX must be bwrap or none' })
  FUNCTIONS_SANDBOX?: 'bwrap' | 'none';

  /** Wall time of one function request (and its ctx.waitUntil work), in ms; past it: 504. */
  @WholeNumber(100, 900_000)
  FUNCTIONS_TIMEOUT_MS = 10_000;

  /** The JavaScript heap of one function instance, in MiB; past it the instance is ended (502), the next request starts a fresh one. */
  @WholeNumber(16, 16_384)
  FUNCTIONS_MEMORY_MB = 128;

  /** An instance without requests for this long (ms) is stopped. */
  @WholeNumber(1000)
  FUNCTIONS_IDLE_MS = 300_000;

  /** Function instances one API process keeps running at most; the least recently used is stopped first. */
  @WholeNumber(1, 10_000)
  FUNCTIONS_MAX_INSTANCES = 50;

  /** The largest request body a function takes, in bytes (larger: 413). */
  @WholeNumber(0, 2 ** 31 - 1)
  FUNCTIONS_MAX_BODY_BYTES = 6 * 1024 * 1024;

  /** A followed log stream (`?follow=true`) without lines for this long (ms) gets a `: keep-alive` comment, so proxies keep it open. */
  @WholeNumber(100, 600_000)
  FUNCTIONS_LOGS_KEEPALIVE_MS = 15_000;

  /** A JSON file of plans (keyed by plan id) replacing or adding to the built-in ones; see docs/guide.md, "Billing". */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  PLANS_FILE?: string;

  /** The plans of this server (built in, with PLANS_FILE's replacing or adding), read once. */
  get plans(): Record<string, Plan> {
    let plans = LOADED_PLANS.get(this);
    if (!plans) {
      plans = loadPlans(this.PLANS_FILE, { requestsPerMinute: this.RATE_LIMIT_MAX, aiRequestsPerMinute: this.RATE_LIMIT_AI_MAX });
      LOADED_PLANS.set(this, plans);
    }
    return plans;
  }

  /** The AI providers and models of this server (AI_PROVIDERS_FILE, or AI_PROVIDER's one model), checked by loadConfig; null: no AI. */
  get aiCatalog(): AiCatalog | null {
    if (!LOADED_AI_CATALOGS.has(this)) LOADED_AI_CATALOGS.set(this, loadAiCatalog(this, process.env));
    return LOADED_AI_CATALOGS.get(this)!;
  }

  /** The country database (GEOIP_DATABASE's, or the bundled one), read once; loadConfig reads a GEOIP_DATABASE before anything connects. */
  get geoIpDatabase(): Reader<Response> {
    let reader = LOADED_GEOIP_DATABASES.get(this);
    if (!reader) {
      reader = openGeoIpDatabase(this.GEOIP_DATABASE);
      LOADED_GEOIP_DATABASES.set(this, reader);
    }
    return reader;
  }

  /** TRUST_PROXY as Fastify's `trustProxy` takes it (a hop count as a function of the hop). */
  get trustProxy(): boolean | string | ((address: string, hop: number) => boolean) {
    if (!this.TRUST_PROXY) return false;
    if (this.TRUST_PROXY === 'true') return true;
    if (!/^\d+$/.test(this.TRUST_PROXY)) return this.TRUST_PROXY;
    const hops = Number(this.TRUST_PROXY);
    return (_address, hop) => hop < hops;
  }

  /** LOG_FORMAT, or what suits stdout: JSON unless it is a terminal. */
  get logFormat(): 'json' | 'pretty' {
    return this.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json');
  }

  /** DNS_SERVERS as node:dns's `setServers` takes them; empty: the system's resolvers. */
  get dnsServers(): string[] {
    return (this.DNS_SERVERS ?? '')
      .split(',')
      .map((server) => server.trim())
      .filter(Boolean);
  }

  get embeddedDatabase(): boolean {
    return !this.DATABASE_URL;
  }

  get publicUrl(): string {
    return (this.PUBLIC_URL ?? `http://localhost:${this.PORT}`).replace(/\/+$/, '');
  }

  /** Whether the service's cookies (the portal's) are marked Secure: its public address is https. */
  get secureCookies(): boolean {
    return this.publicUrl.startsWith('https://');
  }

  get runsHttpApi(): boolean {
    return this.APP_ROLE !== 'worker';
  }

  get runsWorkers(): boolean {
    return this.APP_ROLE !== 'api';
  }

  /**
   * When the retries go, in ms after the first attempt's failure: WEBHOOK_RETRY_SCHEDULE, or
   * WEBHOOK_RETRY_BASE_MS's series (base, 3×base, 7×base), or 5 min, 1 h and 24 h.
   */
  get retryOffsetsMs(): number[] {
    if (this.WEBHOOK_RETRY_SCHEDULE) return parseDurations(this.WEBHOOK_RETRY_SCHEDULE)!;
    const base = this.WEBHOOK_RETRY_BASE_MS;
    return base ? [base, 3 * base, 7 * base] : DEFAULT_RETRY_OFFSETS_MS;
  }

  get disableAfterMs(): number {
    return parseDuration(this.WEBHOOK_DISABLE_AFTER)!;
  }
}

/** What is wrong with the retry settings together, if anything. */
function retryProblems(config: AppConfig): string[] {
  if (config.WEBHOOK_RETRY_SCHEDULE && config.WEBHOOK_RETRY_BASE_MS) {
    return ['set WEBHOOK_RETRY_SCHEDULE or WEBHOOK_RETRY_BASE_MS (a test series), not both'];
  }
  const offsets = config.retryOffsetsMs;
  const increasing = offsets.every((ms, i) => ms > (i === 0 ? 0 : offsets[i - 1]) && ms <= MAX_RETRY_OFFSET_MS);
  const problems = increasing ? [] : [RETRY_SCHEDULE_MESSAGE];
  if (config.disableAfterMs < 1) problems.push('WEBHOOK_DISABLE_AFTER must be longer than 0');
  return problems;
}

/** Plans read from PLANS_FILE, per config (not a field: every field of AppConfig is an environment variable). */
const LOADED_PLANS = new WeakMap<AppConfig, Record<string, Plan>>();
/** The AI catalog read from the settings (and AI_PROVIDERS_FILE), per config. */
const LOADED_AI_CATALOGS = new WeakMap<AppConfig, AiCatalog | null>();
/** The country database, per config. */
const LOADED_GEOIP_DATABASES = new WeakMap<AppConfig, Reader<Response>>();

/** The variables this service knows; anything else in the environment is ignored. */
export const CONFIG_KEYS = Object.keys(new AppConfig())
  .concat([
    'DATABASE_URL',
    'REDIS_URL',
    'ADMIN_TOKEN',
    'PUBLIC_URL',
    'TRUST_PROXY',
    'SITES_DOMAIN',
    'DNS_SERVERS',
    'LOG_FORMAT',
    'PLANS_FILE',
    'SMTP_URL',
    'SMTP_FROM',
    'WEBHOOK_RETRY_SCHEDULE',
    'WEBHOOK_RETRY_BASE_MS',
    'STORAGE_URL',
    'AWS_REGION',
    'AI_PROVIDER',
    'AI_BASE_URL',
    'AI_API_KEY',
    'AI_MODEL',
    'AI_MODEL_PATH',
    'FUNCTIONS_SANDBOX',
    'AI_PROVIDERS_FILE',
  ])
  .filter((key, index, all) => all.indexOf(key) === index);

/**
 * A bad setting: one line, `Invalid configuration: <problem>; <problem>`, each naming the variable
 * and what it accepts. (A message in the older multi-line form, `Invalid configuration:\n  - a`,
 * is folded into that line.)
 */
export class ConfigError extends StartupError {
  constructor(message: string) {
    const [head, ...problems] = message.split(/\n\s*-\s*/);
    super(problems.length ? `${head.replace(/:?\s*$/, ':')} ${problems.join('; ')}` : message);
  }

  static of(problems: string[]): ConfigError {
    return new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const known: Record<string, string | undefined> = {};
  for (const key of CONFIG_KEYS) if (env[key] !== undefined) known[key] = env[key];
  const config = plainToInstance(AppConfig, known, { exposeDefaultValues: true });
  const errors = validateSync(config, { whitelist: true });
  if (errors.length > 0) {
    // One problem per variable (a port of "abc" is not also "less than 0").
    throw ConfigError.of(errors.flatMap((e) => [...new Set(Object.values(e.constraints ?? {}))]));
  }
  const retry = retryProblems(config);
  if (retry.length > 0) throw ConfigError.of(retry);
  const badServer = config.dnsServers.find((server) => !isIP(server.replace(/^\[(.*)\](?::\d+)?$|^([^:]*):\d+$/, '$1$2')));
  if (badServer) throw ConfigError.of([`DNS_SERVERS holds ${JSON.stringify(badServer)}, which is not an IP address (with an optional port)`]);
  const sites = sitesDomainProblem(config.publicUrl, config.SITES_DOMAIN);
  if (sites) throw ConfigError.of([sites]);
  try {
    void config.plans; // a PLANS_FILE that does not validate stops the start here, naming the bad key
  } catch (err) {
    if (err instanceof PlansFileError) throw new ConfigError(err.message);
    throw err;
  }
  try {
    // Read here, before any connection: a start it stops leaves nothing open (GeoIp takes what was read).
    if (config.GEOIP_DATABASE) void config.geoIpDatabase;
  } catch (err) {
    if (err instanceof GeoIpDatabaseError) throw ConfigError.of([err.message]);
    throw err;
  }
  try {
    // The AI settings (and AI_PROVIDERS_FILE) stop the start here, naming the problem; the file's apiKeyEnv reads this env.
    LOADED_AI_CATALOGS.set(config, loadAiCatalog(config, env));
  } catch (err) {
    if (err instanceof AiCatalogError) throw ConfigError.of([err.message]);
    throw err;
  }
  // With a shared database every instance must hold the same keys, kept by the operator: none is made up here.
  const missing = [
    !config.WEBHOOK_SECRET_KEY &&
      'WEBHOOK_SECRET_KEY must be set (at least 32 characters) with DATABASE_URL: it encrypts webhook signing secrets at rest; generate one with `openssl rand -base64 32` and keep it stable',
    !config.SESSION_SECRET &&
      'SESSION_SECRET must be set (at least 32 characters) with DATABASE_URL: it signs sign-up form tokens and portal sessions; generate one with `openssl rand -base64 32`',
  ].filter(Boolean);
  if (config.DATABASE_URL && missing.length > 0) throw ConfigError.of(missing as string[]);
  if (config.SMTP_URL && !config.SMTP_FROM) {
    throw ConfigError.of(['SMTP_FROM must be set with SMTP_URL: the From address of e-mails, like Platform <no-reply@example.com>']);
  }
  if (config.APP_ROLE !== 'all' && (!config.DATABASE_URL || !config.REDIS_URL)) {
    // Split roles share work through PostgreSQL and Redis; in-process queues would strand jobs.
    throw ConfigError.of([`APP_ROLE=${config.APP_ROLE} needs DATABASE_URL and REDIS_URL`]);
  }
  return config;
}
