import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Runs once per `npm test` that has e2e specs, before any suite:
 *  1. builds dist/ when a source changed since the last build (the child-process suites run
 *     `node dist/main.js`, as production does);
 *  2. provides a migrated embedded database; every embedded e2e suite starts from a copy of it
 *     instead of paying for initdb again. It is kept between runs, keyed by the migrations and the
 *     PGlite version, so it is made again only when one of them changes. Workers inherit
 *     E2E_TEMPLATE_DIR;
 *  3. names the run (E2E_RUN_ID): every Redis prefix of its test apps starts with it, so
 *     global-teardown can tell whether any of them left keys behind.
 * (Plain JavaScript, loaded by Jest as it is.)
 */
export default async function globalSetup() {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--if-stale', '--quiet'], { cwd: ROOT, stdio: 'inherit' });
  process.env.E2E_TEMPLATE_DIR = templateDatabase();
  process.env.E2E_RUN_ID = randomBytes(3).toString('hex');
}

/** The migrated template's directory, made when missing. */
function templateDatabase() {
  // Per checkout (several may share this machine), per content.
  const checkout = createHash('sha256').update(ROOT).digest('hex').slice(0, 8);
  const content = createHash('sha256');
  const migrations = join(ROOT, 'dist/database/migrations');
  for (const file of readdirSync(migrations)
    .filter((f) => f.endsWith('.js'))
    .sort())
    content.update(file).update(readFileSync(join(migrations, file)));
  content.update(readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  const name = `platform-e2e-template-${checkout}-`;
  const dir = join(tmpdir(), `${name}${content.digest('hex').slice(0, 12)}`);
  if (existsSync(join(dir, 'pgdata'))) return dir;

  // Made aside and moved into place whole, then the checkout's older templates go.
  const making = `${dir}.${process.pid}`;
  execFileSync(process.execPath, [join(ROOT, 'dist/migrate.js')], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: making, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  renameSync(making, dir);
  for (const old of readdirSync(tmpdir()).filter((f) => f.startsWith(name) && join(tmpdir(), f) !== dir)) {
    rmSync(join(tmpdir(), old), { recursive: true, force: true });
  }
  return dir;
}
