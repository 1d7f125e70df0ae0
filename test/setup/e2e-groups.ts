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
 * Seconds each file took (wall, three workers, 2026-11-25) and which the groups are balanced by; a file not listed
 * counts as UNKNOWN_S. Only the balance of the groups' times depends on these.
 */
const WALL_S: Record<string, number> = {
  ai: 36,
  'ai-gateway': 35,
  'ai-gateway-python': 12,
  analytics: 10,
  'analytics-limits': 17,
  apps: 18,
  'audit-log': 15,
  lifecycle: 40,
  operability: 31,
  outbox: 13,
  portal: 19,
  'portal-account': 16,
  'portal-account-browser': 19,
  'portal-analytics': 15,
  'portal-editor': 15,
  'portal-pages': 37,
  'portal-sign-in': 30,
  'portal-team-browser': 22,
  'portal-webhooks': 15,
  'rate-limit': 16,
  'sdk-cli': 22,
  'sdk-python': 15,
  'sdk-ts': 20,
  'sso-browser': 28,
  sso: 15,
  'landing-pages': 15,
  'webhook-outage': 58,
  'webhook-robustness': 30,
  webhooks: 15,
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
    .map((f) => ({ file: join(TEST_DIR, f), seconds: WALL_S[f.replace('.e2e-spec.ts', '')] ?? UNKNOWN_S }))
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
