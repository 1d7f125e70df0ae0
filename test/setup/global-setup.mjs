import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Runs once per `npm test` that has e2e specs, before any suite:
 *  1. builds dist/ when a source changed since the last build (the child-process suites run
 *     `node dist/main.js`, as production does);
 *  2. provides a migrated embedded database; every embedded e2e suite starts from a copy of it
 *     instead of paying for initdb again. It is kept between runs, keyed by the migrations and the
 *     PGlite version, so it is made again only when one of them changes. Workers inherit
 *     E2E_TEMPLATE_DIR. With DATABASE_URL, likewise a migrated PostgreSQL database that every
 *     suite's database is created from (CREATE DATABASE … TEMPLATE), instead of each test app
 *     running the twenty migrations again (~1.5 s each): E2E_PG_TEMPLATE;
 *  3. names the run (E2E_RUN_ID): every Redis prefix of its test apps starts with it, so
 *     global-teardown can tell whether any of them left keys behind.
 * (Plain JavaScript, loaded by Jest as it is.)
 */
export default async function globalSetup() {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--if-stale', '--quiet'], { cwd: ROOT, stdio: 'inherit' });
  process.env.E2E_TEMPLATE_DIR = templateDatabase();
  if (process.env.DATABASE_URL) process.env.E2E_PG_TEMPLATE = await postgresTemplate(process.env.DATABASE_URL);
  process.env.E2E_RUN_ID = randomBytes(3).toString('hex');
}

// Per checkout (several may share this machine and its PostgreSQL).
const CHECKOUT = createHash('sha256').update(ROOT).digest('hex').slice(0, 8);

/** A hash of the built migrations (and of `extra`): a template is made again when it changes. */
function migrationsHash(...extra) {
  const content = createHash('sha256');
  const migrations = join(ROOT, 'dist/database/migrations');
  for (const file of readdirSync(migrations)
    .filter((f) => f.endsWith('.js'))
    .sort())
    content.update(file).update(readFileSync(join(migrations, file)));
  for (const more of extra) content.update(more);
  return content.digest('hex').slice(0, 12);
}

/** The migrated template's directory, made when missing. */
function templateDatabase() {
  const hash = migrationsHash(readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  const name = `platform-e2e-template-${CHECKOUT}-`;
  const dir = join(tmpdir(), `${name}${hash}`);
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

/**
 * The name of a migrated database on the server of `url`, made when missing (migrated aside, then renamed into
 * place), the checkout's older ones dropped. Nobody connects to it afterwards: CREATE DATABASE … TEMPLATE needs
 * a template without sessions.
 */
async function postgresTemplate(url) {
  const prefix = `t_tpl_${CHECKOUT}_`;
  const name = `${prefix}${migrationsHash()}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const exists = async (db) => (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [db])).rowCount > 0;
    if (!(await exists(name))) {
      const making = `${name}_m${process.pid}`;
      await client.query(`CREATE DATABASE ${making}`);
      const target = new URL(url);
      target.pathname = `/${making}`;
      execFileSync(process.execPath, [join(ROOT, 'dist/migrate.js')], {
        cwd: ROOT,
        // The secrets a PostgreSQL deployment needs; the migrations store nothing made with them.
        env: {
          ...process.env,
          DATABASE_URL: target.toString(),
          LOG_LEVEL: 'silent',
          WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
          SESSION_SECRET: randomBytes(32).toString('hex'),
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      if (await exists(name))
        await client.query(`DROP DATABASE ${making}`); // another run made it meanwhile
      else await client.query(`ALTER DATABASE ${making} RENAME TO ${name}`);
    }
    const { rows } = await client.query('SELECT datname FROM pg_database WHERE starts_with(datname, $1) AND datname <> $2', [prefix, name]);
    // Older templates go; one another run of this checkout is still migrating stays (it has a session).
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => undefined);
  } finally {
    await client.end();
  }
  return name;
}
