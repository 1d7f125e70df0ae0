import { Logger } from '@nestjs/common';
import { DataSource, MigrationExecutor } from 'typeorm';
import { buildDataSourceOptions, DatabaseTarget } from './data-source-options.js';

// An arbitrary constant shared by every instance of this service: whoever holds it migrates.
const MIGRATION_LOCK_KEY = 7_241_503_118;

/**
 * Runs pending migrations under a session-level Postgres advisory lock, on one connection,
 * so instances that start together migrate once and the others wait, then find nothing to do.
 */
export async function runMigrationsLocked(dataSource: DataSource, logger = new Logger('Migrations')): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = 'each';
      const ran = await executor.executePendingMigrations();
      if (ran.length > 0) logger.log(`Applied ${ran.length} migration(s): ${ran.map((m) => m.name).join(', ')}`);
      return ran.map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
  }
}

/** Connects to `target`, migrates under the lock, disconnects. Returns the migrations applied. */
export async function migrateDatabase(target: DatabaseTarget): Promise<string[]> {
  const source = await new DataSource(buildDataSourceOptions(target)).initialize();
  try {
    return await runMigrationsLocked(source);
  } finally {
    await source.destroy();
  }
}
