import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CONFIG_KEYS } from '../src/config/app-config.js';
import { PlatformError } from '../src/common/errors/platform-error.js';
import { LOGGED_EVENT_KINDS } from '../src/events/domain-events.js';
import { startTestApp, target } from './support/test-app.js';

/**
 * The reference docs and the code list the same things, each once: every route of the OpenAPI
 * document, every setting of the config, every event kind and every error reason has exactly one row
 * in its reference table, and .env.example lists exactly the settings. A change on either side that
 * the other does not follow fails here, naming what is missing or extra.
 */
const ROOT = join(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Where each kind of thing has its one reference table: a file and the `## ` section holding it. */
const REFERENCE = {
  routes: { file: 'docs/api.md', section: 'Routes' },
  settings: { file: 'docs/self-hosting.md', section: 'Settings' },
  eventKinds: { file: 'docs/api.md', section: 'Event kinds' },
  reasons: { file: 'docs/api.md', section: 'Error reasons' },
} as const;

/** Every Markdown file of the documentation. */
function docFiles(dir = join(ROOT, 'docs'), found = [join(ROOT, 'README.md'), join(ROOT, 'bench/README.md')]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) docFiles(join(dir, entry.name), found);
    else if (entry.name.endsWith('.md')) found.push(join(dir, entry.name));
  }
  return found;
}

/** Table rows whose first cell is a lone code span, with the file and `## ` section they are in. */
function referenceRows(): Array<{ key: string; where: string }> {
  const rows: Array<{ key: string; where: string }> = [];
  for (const file of docFiles()) {
    let section = '';
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const heading = /^## (.+)$/.exec(line);
      if (heading) section = heading[1].trim();
      const row = /^\|\s*`([^`]+)`\s*\|/.exec(line);
      if (row) rows.push({ key: row[1], where: `${relative(ROOT, file)} § ${section}` });
    }
  }
  return rows;
}

/** What is missing from the reference, what it lists that the code does not have, and what it lists twice or elsewhere. */
function drift(kind: keyof typeof REFERENCE, inCode: string[]) {
  const home = `${REFERENCE[kind].file} § ${REFERENCE[kind].section}`;
  const rows = referenceRows();
  const listed = rows.filter((r) => r.where === home).map((r) => r.key);
  const code = new Set(inCode);
  return {
    missingFromDocs: [...code].filter((key) => !listed.includes(key)).sort(),
    notInCode: listed.filter((key) => !code.has(key)).sort(),
    listedTwice: listed.filter((key, i) => listed.indexOf(key) !== i).sort(),
    listedElsewhere: rows.filter((r) => code.has(r.key) && r.where !== home).map((r) => `${r.key} in ${r.where}`),
  };
}

const NO_DRIFT = { missingFromDocs: [], notInCode: [], listedTwice: [], listedElsewhere: [] };

/** Every reason a PlatformError can carry: each error class's status table is keyed by all of its reasons. */
async function errorReasons(): Promise<string[]> {
  const files = (readdirSync(join(ROOT, 'src'), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
    .filter((f) => /^export class \w+ extends PlatformError\b/m.test(read(join('src', f))));
  const reasons = new Set<string>();
  for (const file of files) {
    // The built module, as every e2e spec's imports of src/ load dist/ (one PlatformError class for all).
    const module = (await import(join(ROOT, 'dist', file.replace(/\.ts$/, '.js')))) as Record<string, unknown>;
    const classes = Object.values(module).filter(
      (v): v is new (...args: unknown[]) => PlatformError => typeof v === 'function' && v.prototype instanceof PlatformError,
    );
    expect({ file, errorClasses: classes.length > 0 }).toEqual({ file, errorClasses: true });
    for (const ErrorClass of classes) {
      const statuses = (new ErrorClass('invalid_request', 'drift check') as unknown as { statuses: Record<string, number> }).statuses;
      for (const reason of Object.keys(statuses)) reasons.add(reason);
    }
  }
  expect(files.length).toBeGreaterThan(10);
  return [...reasons];
}

describe(`the reference docs against the code (${target})`, () => {
  let openapi: { paths: Record<string, Record<string, unknown>> };
  beforeAll(async () => {
    // The OpenAPI document as the server serves it; nothing else here needs a server.
    const app = await startTestApp();
    try {
      openapi = (await app.http().get('/docs/openapi.json').expect(200)).body;
    } finally {
      await app.close();
    }
  });

  it('lists every route of the OpenAPI document once, in docs/api.md § Routes', () => {
    const routes = Object.entries(openapi.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.length).toBeGreaterThan(50);
    expect(drift('routes', routes)).toEqual(NO_DRIFT);
  });

  it('lists every setting of the config once, in docs/self-hosting.md § Settings', () => {
    expect(drift('settings', CONFIG_KEYS)).toEqual(NO_DRIFT);
  });

  it('has .env.example list exactly the settings, each once, commented out', () => {
    const lines = read('.env.example').split('\n');
    const listed = lines.map((line) => /^# ([A-Z][A-Z0-9_]*)=/.exec(line)?.[1]).filter((key): key is string => Boolean(key));
    expect({
      missing: CONFIG_KEYS.filter((key) => !listed.includes(key)).sort(),
      unknown: listed.filter((key) => !CONFIG_KEYS.includes(key)).sort(),
      twice: listed.filter((key, i) => listed.indexOf(key) !== i),
    }).toEqual({ missing: [], unknown: [], twice: [] });
    // Nothing is set by copying it: every setting line is a comment.
    expect(lines.filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))).toEqual([]);
  });

  it('lists every event kind once, in docs/api.md § Event kinds', () => {
    expect(drift('eventKinds', [...LOGGED_EVENT_KINDS])).toEqual(NO_DRIFT);
  });

  it('lists every error reason once, in docs/api.md § Error reasons', async () => {
    const reasons = await errorReasons();
    expect(reasons.length).toBeGreaterThan(40);
    expect(drift('reasons', reasons)).toEqual(NO_DRIFT);
  });
});
