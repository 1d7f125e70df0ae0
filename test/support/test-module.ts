import { DynamicModule, Global, Module, Provider, Type } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import type { JobTick, PeriodicJob, PeriodicJobSpec } from '../../src/common/periodic/periodic-jobs.js';
import { PeriodicJobs } from '../../src/common/periodic/periodic-jobs.js';
import { loadConfig } from '../../src/config/app-config.js';
import { ConfigModule } from '../../src/config/config.module.js';
import { DatabaseModule } from '../../src/database/database.module.js';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres.js';
import { WritePaths } from '../../src/health/write-paths.js';
import { createLogger, PinoNestLogger } from '../../src/logging.js';
import { MetricsModule } from '../../src/metrics/metrics.module.js';
import { AuditModule } from '../../src/audit/audit.module.js';
import { dropFreshResources, freshEnvironment } from './fresh-database.js';

/**
 * The integration tier: the modules under test on the real database of the run's target (a fresh
 * copy of the migrated embedded template, or a fresh PostgreSQL database), without HTTP, Redis or
 * queues. Their periodic jobs run only when the test calls them (`runNow`), never on a timer.
 */
export interface TestModule {
  module: TestingModule;
  get<T>(type: Type<T>): T;
  /** Plain SQL against the database (for arranging and asserting on rows). */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export interface TestModuleOptions {
  imports?: Array<Type<unknown> | DynamicModule>;
  providers?: Provider[];
}

/** What the global modules left out (health, Redis) would provide to the modules under test. */
@Global()
@Module({ providers: [WritePaths], exports: [WritePaths] })
class IntegrationGlobals {}

/** PeriodicJobs whose jobs run only when called: no timer makes a test's rows move under it. */
class CalledJobs {
  add(spec: PeriodicJobSpec): PeriodicJob {
    return { runNow: async () => void (await spec.run({ signal: new AbortController().signal, reason: 'call' } satisfies JobTick)) };
  }
}

export async function startTestModule(options: TestModuleOptions = {}): Promise<TestModule> {
  const env = await freshEnvironment();
  const config = loadConfig(env);
  const embedded = config.embeddedDatabase ? await EmbeddedPostgres.start(config.DATA_DIR) : undefined;
  try {
    const module = await Test.createTestingModule({
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot({ url: config.DATABASE_URL, socketDir: embedded?.socketDir }),
        MetricsModule,
        AuditModule, // global in the app too: every module that changes something worth auditing records it
        IntegrationGlobals,
        ...(options.imports ?? []),
      ],
      providers: options.providers ?? [],
    })
      .overrideProvider(PeriodicJobs)
      .useClass(CalledJobs)
      .setLogger(new PinoNestLogger(createLogger(config)))
      .compile();
    await module.init();
    const dataSource = module.get(DataSource);
    return {
      module,
      get: (type) => module.get(type, { strict: false }),
      query: (sql, params) => dataSource.query(sql, params),
      async close() {
        await module.close();
        await embedded?.stop();
        await dropFreshResources(env);
      },
    };
  } catch (err) {
    await embedded?.stop();
    await dropFreshResources(env);
    throw err;
  }
}
