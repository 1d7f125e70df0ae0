import { DynamicModule, Type } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import passport from 'passport';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { RunningServer, startServer } from '../../src/server.js';
import { ADMIN_TOKEN, dropFreshResources, freshEnvironment, target } from './fresh-database.js';

export { ADMIN_TOKEN, createDatabase, dropFreshResources, dropRedisKeys, freshEnvironment, redisRunPrefix, target } from './fresh-database.js';

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

/** Creates an account through the admin API; returns its id and first API key (once auth lands). */
export async function createAccount(app: TestApp, email = `dev-${randomBytes(4).toString('hex')}@example.com`) {
  const res = await app.http().post('/v1/admin/accounts').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ email }).expect(201);
  return res.body as { accountId: string; email: string; apiKey: string };
}

/** Creates a service account with the caller's API key; returns its id and OAuth client credentials. */
export async function createServiceAccount(app: TestApp, apiKey: string, name: string, scopes: string[]) {
  const res = await app.http().post('/v1/service-accounts').set('authorization', `Bearer ${apiKey}`).send({ name, scopes }).expect(201);
  return res.body as { id: string; clientId: string; clientSecret: string };
}
