import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const { runsOn } = createRequire(import.meta.url)('./one-target.cjs') as { runsOn: (file: string, target: string) => boolean };
/** The target of this Jest project (its setup file sets E2E_TARGET; test/support/fresh-database.ts reads it the same way). */
const currentTarget = (): 'embedded' | 'postgres' => (process.env.E2E_TARGET === 'postgres' ? 'postgres' : 'embedded');

/**
 * A full run's e2e specs, in groups (and its integration specs, in one: `test/groups/integration.int-group.ts`): each `test/groups/<n>.e2e-group.ts` imports the spec files of group n, so
 * they share one module registry. A test file's fixed cost is mostly loading the app's and its libraries' modules
 * in a registry of its own (~1.5 s of CPU for each file beyond the first in a worker): grouped, eight small files
 * took 16 s of CPU instead of 33 s. The spec files stay as they are (`npm test -- test/outbox` runs one alone;
 * jest.config.cjs runs the groups only for a run without a file pattern). Every spec file is in exactly one group,
 * found anew on each run: a new file needs no listing here.
 */

const TEST_DIR = join(import.meta.dirname, '..');
const GROUP_DIR = join(TEST_DIR, 'groups');

/**
 * Seconds of CPU each file took on the embedded target (its Jest worker's and its child processes': servers, CLIs,
 * chromium), one file per registry, 2026-11-29 (test/setup/timing-environment.cjs; the files not measured that day
 * estimated), which the groups are balanced by: the suite is CPU-bound on CI's 2 cores, so groups of equal CPU end
 * together. A file not listed counts as UNKNOWN_S. Only the balance of the groups depends on these.
 */
const CPU_S: Record<string, number> = {
  ai: 28,
  'ai-budgets': 11,
  'ai-gateway': 27,
  'ai-gateway-python': 10,
  analytics: 31,
  'analytics-events': 13,
  'analytics-limits': 35,
  apps: 28,
  'audit-log': 18,
  auth: 12,
  billing: 13,
  deployments: 11,
  domains: 11,
  files: 15,
  foundation: 16,
  functions: 17,
  'functions-browser': 29,
  idempotency: 14,
  invitations: 31,
  'landing-pages': 21,
  lifecycle: 27,
  members: 11,
  mfa: 23,
  'multi-instance': 12,
  operability: 44,
  outbox: 18,
  'outbox-crash': 12,
  'poison-input': 17,
  portal: 27,
  'portal-account': 30,
  'portal-account-browser': 17,
  'portal-analytics': 18,
  'portal-analytics-browser': 18,
  'portal-editor': 23,
  'portal-pages': 20,
  'portal-sign-in': 34,
  'portal-split-browser': 20,
  'portal-sudo-browser': 19,
  'portal-team': 15,
  'portal-team-browser': 31,
  'portal-webhooks': 23,
  publishing: 21,
  queue: 14,
  quotas: 11,
  'rate-limit': 18,
  'redis-outage': 10,
  robustness: 26,
  'sdk-cli': 19,
  'sdk-python': 12,
  'sdk-ts': 31,
  'signup-form': 15,
  'site-browser': 20,
  'site-compression': 20,
  'site-memory': 15,
  'site-origins': 9,
  split: 34,
  sso: 19,
  'sso-browser': 56,
  'storage-quota': 24,
  'team-credentials': 14,
  'tls-proxy': 10,
  tour: 10,
  users: 16,
  'webhook-outage': 31,
  'webhook-robustness': 21,
  webhooks: 26,
};
const UNKNOWN_S = 8;

/**
 * The spec files of each group (absolute paths) on `target`: the longest first, each to the group with the least time
 * so far. The specs of one-target.cjs are in one target's groups only.
 */
export function e2eGroups(target: 'embedded' | 'postgres' = currentTarget()): string[][] {
  const count = readdirSync(GROUP_DIR).filter((f) => f.endsWith('.e2e-group.ts')).length;
  const groups = Array.from({ length: count }, () => ({ files: [] as string[], seconds: 0 }));
  const specs = readdirSync(TEST_DIR)
    .filter((f) => f.endsWith('.e2e-spec.ts') && runsOn(f, target))
    .map((f) => ({ file: join(TEST_DIR, f), seconds: CPU_S[f.replace('.e2e-spec.ts', '')] ?? UNKNOWN_S }))
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
  for (const spec of specs) {
    const group = groups.reduce((least, g) => (g.seconds < least.seconds ? g : least));
    group.files.push(spec.file);
    group.seconds += spec.seconds;
  }
  return groups.map((g) => g.files.sort());
}

/** Loads the spec files of group `n` (from 1) into the calling file's registry: their suites become its suites. */
export async function importGroup(n: number): Promise<void> {
  const files = e2eGroups()[n - 1];
  if (!files) throw new Error(`no e2e group ${n}: test/groups holds ${e2eGroups().length}`);
  for (const file of files) await import(file);
}

/** Loads every integration spec (test/integration, a few light files) into the calling file's registry. */
export async function importIntegrationSpecs(): Promise<void> {
  const dir = join(TEST_DIR, 'integration');
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.int-spec.ts'))
    .sort())
    await import(join(dir, file));
}
