import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../config/app-config.js';
import { builtInPlans, loadPlans, parsePlans, periodOf, PlansFileError } from './plans.js';

const LIMITS = { requestsPerMinute: 100, aiRequestsPerMinute: 20 };

describe('plans', () => {
  it('come with free, pro and enterprise; free takes RATE_LIMIT_MAX and RATE_LIMIT_AI_MAX', () => {
    const plans = builtInPlans({ requestsPerMinute: 7, aiRequestsPerMinute: 3 });
    expect(Object.keys(plans)).toEqual(['free', 'pro', 'enterprise']);
    expect(plans.free).toMatchObject({ requestsPerMinute: 7, aiRequestsPerMinute: 3, meters: { deployments: { included: 100, hard: true } } });
    expect(plans.enterprise.meters).toEqual({});
  });

  it('meter storage.bytes: 2 GiB hard on free, 100 GiB on pro then 3¢ per GiB-month, unlimited on enterprise; a plans file may make it hard', () => {
    const plans = builtInPlans(LIMITS);
    expect(plans.free.meters['storage.bytes']).toEqual({ included: 2 * 2 ** 30, hard: true, overageCentsPerUnit: 0, unitSize: 1 });
    expect(plans.pro.meters['storage.bytes']).toEqual({ included: 100 * 2 ** 30, hard: false, overageCentsPerUnit: 3, unitSize: 2 ** 30 });
    expect(plans.enterprise.meters['storage.bytes']).toBeUndefined();
    const parsed = parsePlans({
      x: { name: 'X', priceCents: 0, requestsPerMinute: 1, aiRequestsPerMinute: 1, meters: { 'storage.bytes': { included: 5, hard: true } } },
    });
    expect(parsed.x.meters['storage.bytes']).toMatchObject({ included: 5, hard: true });
  });

  it('meter bandwidth.bytes softly on every built-in plan: 10 GiB included on free, 100 GiB on pro, unlimited on enterprise', () => {
    const plans = builtInPlans(LIMITS);
    expect(plans.free.meters['bandwidth.bytes']).toEqual({ included: 10 * 2 ** 30, hard: false, overageCentsPerUnit: 0, unitSize: 1 });
    expect(plans.pro.meters['bandwidth.bytes']).toEqual({ included: 100 * 2 ** 30, hard: false, overageCentsPerUnit: 10, unitSize: 2 ** 30 });
    expect(plans.enterprise.meters['bandwidth.bytes']).toBeUndefined();
    expect(() =>
      parsePlans({ x: { name: 'X', priceCents: 0, requestsPerMinute: 1, aiRequestsPerMinute: 1, meters: { 'bandwidth.bytes': { included: 1, hard: true } } } }),
    ).toThrow(/hard can be true only for/);
  });

  it('meter functions.requests and functions.duration_ms softly on every built-in plan; a plans file may make them hard', () => {
    const plans = builtInPlans(LIMITS);
    expect(plans.free.meters['functions.requests']).toEqual({ included: 100_000, hard: false, overageCentsPerUnit: 0, unitSize: 1 });
    expect(plans.free.meters['functions.duration_ms']).toEqual({ included: 10_000_000, hard: false, overageCentsPerUnit: 0, unitSize: 1 });
    expect(plans.pro.meters['functions.requests']).toEqual({ included: 1_000_000, hard: false, overageCentsPerUnit: 1, unitSize: 10_000 });
    expect(plans.pro.meters['functions.duration_ms']).toEqual({ included: 100_000_000, hard: false, overageCentsPerUnit: 1, unitSize: 1_000_000 });
    expect(plans.enterprise.meters['functions.requests']).toBeUndefined();
    const parsed = parsePlans({
      x: {
        name: 'X',
        priceCents: 0,
        requestsPerMinute: 1,
        aiRequestsPerMinute: 1,
        meters: { 'functions.requests': { included: 5, hard: true }, 'functions.duration_ms': { included: 1000, hard: true } },
      },
    });
    expect(parsed.x.meters).toMatchObject({ 'functions.requests': { included: 5, hard: true }, 'functions.duration_ms': { included: 1000, hard: true } });
  });

  it('reads PLANS_FILE over the built-in ones, with defaults for the optional meter fields', () => {
    const dir = mkdtempSync(join(tmpdir(), 'plans-'));
    writeFileSync(
      join(dir, 'plans.json'),
      JSON.stringify({
        pro: { name: 'Pro+', priceCents: 2500, requestsPerMinute: 900, aiRequestsPerMinute: 90, meters: { 'ai.tokens': { included: null, hard: false } } },
      }),
    );
    const plans = loadPlans(join(dir, 'plans.json'), LIMITS);
    expect(plans.pro).toEqual({
      id: 'pro',
      name: 'Pro+',
      priceCents: 2500,
      requestsPerMinute: 900,
      aiRequestsPerMinute: 90,
      meters: { 'ai.tokens': { included: null, hard: false, overageCentsPerUnit: 0, unitSize: 1 } },
    });
    expect(plans.free.name).toBe('Free');
  });

  it.each([
    [[], 'PLANS_FILE: (the file) must be a JSON object'],
    [{ 'Bad Id': {} }, 'PLANS_FILE: Bad Id is not a valid plan id'],
    [{ free: { name: 'Free', priceCents: -1, requestsPerMinute: 1, aiRequestsPerMinute: 1 } }, 'PLANS_FILE: free.priceCents must be a whole number ≥ 0'],
    [{ free: { name: 'Free', priceCents: 0, requestsPerMinute: 1, aiRequestsPerMinute: 1, colour: 'red' } }, 'PLANS_FILE: free.colour is not a plan field'],
    [
      { free: { name: 'Free', priceCents: 0, requestsPerMinute: 1, aiRequestsPerMinute: 1, meters: { 'ai.tokenz': { included: 1, hard: true } } } },
      'PLANS_FILE: free.meters.ai.tokenz is not a meter',
    ],
    [
      { free: { name: 'Free', priceCents: 0, requestsPerMinute: 1, aiRequestsPerMinute: 1, meters: { 'ai.tokens': { included: '1000', hard: true } } } },
      'PLANS_FILE: free.meters.ai.tokens.included must be a whole number ≥ 0 or null',
    ],
    [
      { free: { name: 'Free', priceCents: 0, requestsPerMinute: 1, aiRequestsPerMinute: 1, meters: { 'api.requests': { included: 10, hard: true } } } },
      'PLANS_FILE: free.meters.api.requests.hard can be true only for ai.tokens and deployments',
    ],
  ])('refuses %j naming the bad key', (raw, message) => {
    expect(() => parsePlans(raw)).toThrow(PlansFileError);
    expect(() => parsePlans(raw)).toThrow(message);
  });

  it('stops the start with a ConfigError when PLANS_FILE does not validate', () => {
    const dir = mkdtempSync(join(tmpdir(), 'plans-'));
    writeFileSync(join(dir, 'plans.json'), JSON.stringify({ pro: { name: 'Pro' } }));
    expect(() => loadConfig({ PLANS_FILE: join(dir, 'plans.json') })).toThrow(ConfigError);
    expect(() => loadConfig({ PLANS_FILE: join(dir, 'plans.json') })).toThrow('PLANS_FILE: pro.priceCents must be a whole number ≥ 0');
    expect(() => loadConfig({ PLANS_FILE: join(dir, 'missing.json') })).toThrow(/PLANS_FILE .* could not be read/);
  });

  it('bills by UTC calendar month, the end exclusive', () => {
    expect(periodOf(new Date('2026-12-31T23:59:59Z'))).toEqual({ start: '2026-12-01', end: '2027-01-01' });
  });
});
