import { readFileSync } from 'node:fs';

/** What the service meters, each recorded once per billable thing. */
export const METERS = [
  'api.requests',
  'ai.tokens',
  'deployments',
  'analytics.events',
  'webhook.deliveries',
  'bandwidth.bytes',
  'storage.bytes',
  'functions.requests',
  'functions.duration_ms',
] as const;
export type Meter = (typeof METERS)[number];
/**
 * Meters that requests consume before their work (a hard quota answers 402 there; a function request, the visitor's
 * 503 page); the others are counted after the fact.
 */
export const HARD_CAPABLE_METERS: readonly Meter[] = ['ai.tokens', 'deployments', 'storage.bytes', 'functions.requests', 'functions.duration_ms'];
/**
 * Meters of a level rather than a count (what is kept, not what was done): `used` is the level now, the
 * quota is on the level, the ledger holds one sample a day, and a statement bills the period's average
 * (byte-months, as S3 bills GB-months).
 */
export const GAUGE_METERS: readonly Meter[] = ['storage.bytes'];

export function isGauge(meter: string): boolean {
  return (GAUGE_METERS as readonly string[]).includes(meter);
}

export interface MeterQuota {
  /** Included each month; null: unlimited. */
  included: number | null;
  /** A request that would go past `included` answers 402 (deployments, ai.tokens, storage.bytes); otherwise overage is billed. */
  hard: boolean;
  /** Price of one block of overage, in cents. */
  overageCentsPerUnit: number;
  /** Units per block (default 1): e.g. 1000 to price tokens per thousand. */
  unitSize: number;
}

export interface Plan {
  id: string;
  name: string;
  priceCents: number;
  requestsPerMinute: number;
  aiRequestsPerMinute: number;
  /** Meters the plan does not list are unlimited. */
  meters: Partial<Record<Meter, MeterQuota>>;
}

export class PlansFileError extends Error {}

const GiB = 2 ** 30;

const quota = (included: number | null, hard: boolean, overageCentsPerUnit = 0, unitSize = 1): MeterQuota => ({
  included,
  hard,
  overageCentsPerUnit,
  unitSize,
});

/** The plans that come with the server. `free`'s request limits are RATE_LIMIT_MAX and RATE_LIMIT_AI_MAX. */
export function builtInPlans(limits: { requestsPerMinute: number; aiRequestsPerMinute: number }): Record<string, Plan> {
  return {
    free: {
      id: 'free',
      name: 'Free',
      priceCents: 0,
      ...limits,
      meters: {
        deployments: quota(100, true),
        'ai.tokens': quota(100_000, true),
        'analytics.events': quota(100_000, false),
        'webhook.deliveries': quota(10_000, false),
        'bandwidth.bytes': quota(10 * GiB, false),
        'storage.bytes': quota(2 * GiB, true),
        'functions.requests': quota(100_000, false),
        'functions.duration_ms': quota(10_000_000, false),
      },
    },
    pro: {
      id: 'pro',
      name: 'Pro',
      priceCents: 2000,
      requestsPerMinute: 1000,
      aiRequestsPerMinute: 200,
      meters: {
        deployments: quota(1000, false, 1),
        'ai.tokens': quota(2_000_000, false, 2, 1000),
        'analytics.events': quota(1_000_000, false, 1, 1000),
        'webhook.deliveries': quota(100_000, false, 1, 100),
        'bandwidth.bytes': quota(100 * GiB, false, 10, GiB),
        'storage.bytes': quota(100 * GiB, false, 3, GiB),
        'functions.requests': quota(1_000_000, false, 1, 10_000),
        'functions.duration_ms': quota(100_000_000, false, 1, 1_000_000),
      },
    },
    enterprise: { id: 'enterprise', name: 'Enterprise', priceCents: 50_000, requestsPerMinute: 10_000, aiRequestsPerMinute: 1000, meters: {} },
  };
}

/**
 * The plans of this server: the built-in ones, with those PLANS_FILE names replaced (or added).
 * A file that does not validate throws PlansFileError naming the bad key.
 */
export function loadPlans(path: string | undefined, limits: { requestsPerMinute: number; aiRequestsPerMinute: number }): Record<string, Plan> {
  const plans = builtInPlans(limits);
  if (!path) return plans;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new PlansFileError(`PLANS_FILE ${path} could not be read as JSON: ${(err as Error).message}`);
  }
  return { ...plans, ...parsePlans(raw) };
}

export function parsePlans(raw: unknown): Record<string, Plan> {
  const fail = (key: string, problem: string): never => {
    throw new PlansFileError(`PLANS_FILE: ${key} ${problem}`);
  };
  if (!isObject(raw)) return fail('(the file)', 'must be a JSON object keyed by plan id');
  const plans: Record<string, Plan> = {};
  for (const [id, value] of Object.entries(raw)) {
    if (!/^[a-z0-9][a-z0-9_-]{0,39}$/.test(id)) fail(id, 'is not a valid plan id (1–40 of a-z, 0-9, _ and -)');
    if (!isObject(value)) fail(id, 'must be an object');
    const plan = value as Record<string, unknown>;
    for (const key of Object.keys(plan)) {
      if (!['name', 'priceCents', 'requestsPerMinute', 'aiRequestsPerMinute', 'meters'].includes(key)) fail(`${id}.${key}`, 'is not a plan field');
    }
    if (typeof plan.name !== 'string' || plan.name.length === 0 || plan.name.length > 60) fail(`${id}.name`, 'must be a string of 1–60 characters');
    const whole = (key: string, min: number) => {
      const n = plan[key];
      if (!Number.isSafeInteger(n) || (n as number) < min) fail(`${id}.${key}`, `must be a whole number ≥ ${min}`);
      return n as number;
    };
    const meters: Partial<Record<Meter, MeterQuota>> = {};
    const rawMeters = plan.meters ?? {};
    if (!isObject(rawMeters)) fail(`${id}.meters`, 'must be an object keyed by meter');
    for (const [meter, spec] of Object.entries(rawMeters as Record<string, unknown>)) {
      const key = `${id}.meters.${meter}`;
      if (!METERS.includes(meter as Meter)) fail(key, `is not a meter (${METERS.join(', ')})`);
      if (!isObject(spec)) fail(key, 'must be an object');
      const s = spec as Record<string, unknown>;
      for (const field of Object.keys(s))
        if (!['included', 'hard', 'overageCentsPerUnit', 'unitSize'].includes(field)) fail(`${key}.${field}`, 'is not a meter field');
      if (s.included !== null && (!Number.isSafeInteger(s.included) || (s.included as number) < 0))
        fail(`${key}.included`, 'must be a whole number ≥ 0 or null');
      if (typeof s.hard !== 'boolean') fail(`${key}.hard`, 'must be true or false');
      if (s.hard && !HARD_CAPABLE_METERS.includes(meter as Meter)) fail(`${key}.hard`, `can be true only for ${HARD_CAPABLE_METERS.join(' and ')}`);
      if (s.overageCentsPerUnit !== undefined && (!Number.isSafeInteger(s.overageCentsPerUnit) || (s.overageCentsPerUnit as number) < 0))
        fail(`${key}.overageCentsPerUnit`, 'must be a whole number ≥ 0');
      if (s.unitSize !== undefined && (!Number.isSafeInteger(s.unitSize) || (s.unitSize as number) < 1)) fail(`${key}.unitSize`, 'must be a whole number ≥ 1');
      meters[meter as Meter] = quota(
        (s.included ?? null) as number | null,
        s.hard as boolean,
        (s.overageCentsPerUnit as number) ?? 0,
        (s.unitSize as number) ?? 1,
      );
    }
    plans[id] = {
      id,
      name: plan.name as string,
      priceCents: whole('priceCents', 0),
      requestsPerMinute: whole('requestsPerMinute', 1),
      aiRequestsPerMinute: whole('aiRequestsPerMinute', 1),
      meters,
    };
  }
  return plans;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first day of the UTC month of `at`, and of the next one (the period's exclusive end). */
export function periodOf(at: Date): { start: string; end: string } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { start: start.toISOString().slice(0, 10), end: end.toISOString().slice(0, 10) };
}
