import { randomBytes } from 'node:crypto';
import { accessSync, constants, cpSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { TEMPLATE_DATA_DIR } from '../setup/template.js';

/*
 * A fresh database (and Redis prefix) per suite, for the e2e tests (test-app.ts) and the integration
 * tests (test-module.ts) alike.
 */

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

/** Which backing services this run uses (see jest.config.cjs projects). */
export const target: 'embedded' | 'postgres' = process.env.E2E_TARGET === 'postgres' ? 'postgres' : 'embedded';

/**
 * Where the suites' data directories go: memory (tmpfs, /dev/shm) where the machine has it, else the temporary
 * folder. Copying the 40 MB template there costs a tenth of the CPU it costs on a disk (~0.1 s instead of ~0.8 s,
 * for each of the run's ~100 test apps), and PGlite's writes and fsyncs there touch no disk.
 */
export const DATA_ROOT = writableFolder('/dev/shm') ?? tmpdir();

function writableFolder(path: string): string | undefined {
  try {
    accessSync(path, constants.W_OK);
    return statSync(path).isDirectory() ? path : undefined;
  } catch {
    return undefined;
  }
}

export interface FreshOptions {
  /**
   * false: an empty database, which the app migrates as it starts (for the tests of migrating). By default the
   * database is already migrated: a copy of the run's template (see global-setup).
   */
  migrated?: boolean;
}

export async function freshEnvironment(options: FreshOptions = {}): Promise<Record<string, string>> {
  const migrated = options.migrated ?? true;
  const dataDir = mkdtempSync(join(DATA_ROOT, 'platform-e2e-'));
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_TOKEN,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    // The local OpenID provider is http://127.0.0.1:<port>.
    SSO_ALLOW_INSECURE_LOOPBACK: 'true',
    // scrypt at 2^10 rather than 2^15: the sign-in's behaviour is the same, at a thirtieth of the CPU a password
    // (about 1 ms instead of 50; the portal specs hash and verify hundreds). src/portal/password-hash.spec.ts tests the cost.
    PASSWORD_HASH_COST: '10',
  };
  if (target === 'postgres') {
    env.DATABASE_URL = await createDatabase({ migrated });
    env.WEBHOOK_SECRET_KEY = `test-webhook-secret-key-${randomBytes(16).toString('hex')}`;
    env.SESSION_SECRET = `test-session-secret-${randomBytes(16).toString('hex')}`;
    if (process.env.REDIS_URL) {
      env.REDIS_URL = process.env.REDIS_URL;
      // The run's id first: global-teardown finds every key a test app of this run left behind.
      env.REDIS_PREFIX = `${redisRunPrefix()}${randomBytes(6).toString('hex')}`;
    }
  } else if (migrated && existsSync(TEMPLATE_DATA_DIR)) {
    // A migrated copy of the embedded database: skips initdb (~5 s) for every suite.
    cpSync(join(TEMPLATE_DATA_DIR, 'pgdata'), join(dataDir, 'pgdata'), { recursive: true });
  }
  return env;
}

/** CREATE DATABASE t_<random> on the server of DATABASE_URL (a copy of the run's migrated template by default); returns its URL. */
export async function createDatabase(options: FreshOptions = {}): Promise<string> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('E2E_TARGET=postgres needs DATABASE_URL');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    const template = (options.migrated ?? true) ? process.env.E2E_PG_TEMPLATE : undefined;
    await client.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Removes what freshEnvironment made: the data directory and, on PostgreSQL, the database and the Redis keys. */
export async function dropFreshResources(env: Record<string, string>, dataDir = env.DATA_DIR): Promise<void> {
  rmSync(dataDir, { recursive: true, force: true });
  if (env.REDIS_PREFIX && process.env.REDIS_URL) await dropRedisKeys(`${env.REDIS_PREFIX}:*`);
  if (target !== 'postgres' || !env.DATABASE_URL) return;
  const name = new URL(env.DATABASE_URL).pathname.slice(1);
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** What every test Redis prefix of this run starts with (global-setup picks the run's id). */
export function redisRunPrefix(): string {
  return `t${process.env.E2E_RUN_ID ?? ''}`;
}

/** Deletes the keys matching `pattern` (queues, rate limits, caches of a test app) from the Redis of REDIS_URL; answers how many. */
export async function dropRedisKeys(pattern: string): Promise<number> {
  const redis = new Redis(process.env.REDIS_URL!, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let dropped = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      if (keys.length > 0) dropped += await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
  return dropped;
}
