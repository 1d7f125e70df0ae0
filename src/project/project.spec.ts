import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

const ROOT = join(import.meta.dirname, '..', '..');

/** Every package.json npm installed under node_modules (scoped and nested ones too). */
function installedPackages(dir = join(ROOT, 'node_modules'), found: string[] = []): string[] {
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.name.startsWith('@')) {
      installedPackages(path, found);
      continue;
    }
    if (existsSync(join(path, 'package.json'))) found.push(join(path, 'package.json'));
    installedPackages(join(path, 'node_modules'), found);
  }
  return found;
}

describe('the project as a user gets it', () => {
  it('installs on this Node without EBADENGINE: every dependency accepts the running version', () => {
    const misfits: string[] = [];
    for (const file of installedPackages()) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string; engines?: { node?: string } };
      const range = pkg.engines?.node;
      if (range && semver.validRange(range) && !semver.satisfies(process.version, range, { includePrerelease: true }))
        misfits.push(`${pkg.name}@${pkg.version} wants node ${range}`);
    }
    expect(misfits).toEqual([]);
  });

  it('needs no file outside the repository: nothing tracked points into a shared folder beside it', () => {
    const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f && !f.startsWith('.ci/') && f !== 'package-lock.json');
    const needle = ['..', 'shared', ''].join('/');
    const offenders = tracked.filter((f) => existsSync(join(ROOT, f)) && !/\.(png|gguf)$/.test(f) && readFileSync(join(ROOT, f), 'utf8').includes(needle));
    expect(offenders).toEqual([]);
  });

  it('ships the test model in the repository, as a real GGUF file (not an LFS pointer)', () => {
    const model = readFileSync(join(ROOT, 'test/fixtures/models/stories260K.gguf'));
    expect(model.subarray(0, 4).toString()).toBe('GGUF');
    expect(model.length).toBe(1_185_376);
  });

  it('`npm start` rebuilds only when a source changed', () => {
    const buildIfStale = () => execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
    // Up to date first (the e2e specs' global setup builds dist/; the unit specs alone do not)…
    buildIfStale();
    // …then nothing is stale, so nothing is built (and nothing printed).
    expect(buildIfStale()).toBe('');
  });

  it('ignores what installing and testing the SDKs and browser pages leaves behind', () => {
    for (const path of [
      'libs/sdk/platform-sdk-0.1.0.tgz',
      'libs/sdk-python/build/lib/x.py',
      'libs/sdk-python/platform_sdk.egg-info/PKG-INFO',
      'test/artifacts/landing-page.png',
    ]) {
      expect(execFileSync('git', ['check-ignore', path], { cwd: ROOT, encoding: 'utf8' }).trim()).toBe(path);
    }
  });

  it("keeps the docs' shell examples runnable: every variable is set before use (there or by the tour), no jq, openssl or macOS-only commands", () => {
    const docs = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const assignedIn = (shell: string) => new Set([...shell.matchAll(/^\s*(?:export\s+|if\s+!\s+)?([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]));
    // The guide's examples continue the tour: its variables count as set.
    const tour = assignedIn(readFileSync(join(ROOT, 'docs/tour.sh'), 'utf8'));
    const environment = new Set(['PATH', 'HOME']);
    for (const doc of docs) {
      const shell = [...readFileSync(join(ROOT, doc), 'utf8').matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]).join('\n');
      const assigned = assignedIn(shell);
      const used = [...shell.matchAll(/\$\{?([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1]);
      const unset = [...new Set(used.filter((v) => !assigned.has(v) && !tour.has(v) && !environment.has(v)))];
      expect({ doc, unset }).toEqual({ doc, unset: [] });
      expect({ doc, tools: shell.match(/^\s*open\s+http|\|\s*jq\b|^\s*jq\b|\bopenssl\s/gm) }).toEqual({ doc, tools: null });
    }
  });
});
