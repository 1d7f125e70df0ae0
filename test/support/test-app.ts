import { DynamicModule, Type } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import passport from 'passport';
import pg from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { RunningServer, startServer } from '../../src/server.js';
import { TEMPLATE_DATA_DIR } from '../setup/template.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

/** Which backing services this run of the e2e suite uses (see jest.config.cjs projects). */
export const target: 'embedded' | 'postgres' = process.env.E2E_TARGET === 'postgres' ? 'postgres' : 'embedded';

export interface TestApp {
  server: RunningServer;
  /** supertest bound to the listening server */
  http: () => request.Agent;
  url: string;
  dataDir: string;
  /** Plain SQL against the app's database (for asserting on rows). */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  env: Record<string, string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  modules?: Array<Type<unknown> | DynamicModule>;
  /** Reuse this data dir / database instead of a fresh one (restart tests). */
  reuse?: { dataDir: string; env: Record<string, string> };
  /** Keep the data dir / database after close (to restart on it). */
  keep?: boolean;
}

/**
 * Boots the real service on a free port with a fresh database: a copy of the migrated embedded
 * template, or (E2E_TARGET=postgres) a new database on DATABASE_URL plus a fresh Redis prefix.
 *
 * Two apps at once in one process share what is process-wide: passport's strategies above all (the
 * last app started authenticates the requests of both). Closing an app puts back the strategies it
 * replaced, so the other one keeps working; for apps that must be apart, run real processes
 * (support/child-server.ts).
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const env = options.reuse?.env ?? (await freshEnvironment());
  const dataDir = options.reuse?.dataDir ?? env.DATA_DIR;
  const fullEnv = { ...env, ...options.env };
  const replaced = { ...strategies() };
  const server = await startServer({ env: fullEnv, modules: options.modules });
  const registered = { ...strategies() };
  const source = new DataSource(
    target === 'postgres'
      ? { type: 'postgres', url: fullEnv.DATABASE_URL, extra: { max: 2 } }
      : { type: 'postgres', host: dataDir, port: 5432, username: 'postgres', database: 'postgres', extra: { max: 1 } },
  );
  // The embedded database takes one connection at a time, which the app holds: read through the app's own pool there.
  const appSource = server.app.get(DataSource);
  const querySource = target === 'postgres' ? await source.initialize() : appSource;
  return {
    server,
    url: server.url,
    http: () => request.agent(server.url),
    dataDir,
    env: fullEnv,
    query: (sql, params) => querySource.query(sql, params),
    async close() {
      if (querySource !== appSource) await querySource.destroy();
      await server.close();
      restoreStrategies(registered, replaced);
      if (!options.keep) await dropFreshResources(fullEnv, dataDir);
    },
  };
}

/** passport's strategies by name: one registry for the whole process. */
function strategies(): Record<string, unknown> {
  return (passport as unknown as { _strategies: Record<string, unknown> })._strategies;
}

/** Puts back the strategies an app replaced, where they are still the ones it registered. */
function restoreStrategies(registered: Record<string, unknown>, replaced: Record<string, unknown>): void {
  const current = strategies();
  for (const [name, strategy] of Object.entries(registered)) {
    if (current[name] !== strategy) continue;
    if (replaced[name]) current[name] = replaced[name];
    else delete current[name];
  }
}

export async function freshEnvironment(): Promise<Record<string, string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-e2e-'));
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_TOKEN,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  };
  if (target === 'postgres') {
    env.DATABASE_URL = await createDatabase();
    env.WEBHOOK_SECRET_KEY = `test-webhook-secret-key-${randomBytes(16).toString('hex')}`;
    env.SESSION_SECRET = `test-session-secret-${randomBytes(16).toString('hex')}`;
    if (process.env.REDIS_URL) {
      env.REDIS_URL = process.env.REDIS_URL;
      // The run's id first: global-teardown finds every key a test app of this run left behind.
      env.REDIS_PREFIX = `${redisRunPrefix()}${randomBytes(6).toString('hex')}`;
    }
  } else if (existsSync(TEMPLATE_DATA_DIR)) {
    // A migrated copy of the embedded database: skips initdb (~5 s) for every suite.
    cpSync(join(TEMPLATE_DATA_DIR, 'pgdata'), join(dataDir, 'pgdata'), { recursive: true });
  }
  return env;
}

/** CREATE DATABASE t_<random> on the server of DATABASE_URL; returns its URL. */
export async function createDatabase(): Promise<string> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('E2E_TARGET=postgres needs DATABASE_URL');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
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

/** Creates an account through the admin API; returns its id and first API key (once auth lands). */
export async function createAccount(app: TestApp, email = `dev-${randomBytes(4).toString('hex')}@example.com`) {
  const res = await app.http().post('/v1/admin/accounts').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ email }).expect(201);
  return res.body as { accountId: string; email: string; apiKey: string };
}
