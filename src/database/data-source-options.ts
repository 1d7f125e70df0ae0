import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations/index.js';

export interface DatabaseTarget {
  /** postgres:// URL of a real server. */
  url?: string;
  /** Directory holding the embedded server's unix socket. */
  socketDir?: string;
}

/**
 * The one description of the database connection, used by the app and by the TypeORM CLI
 * (ormconfig.ts). Schema changes only ever come from migrations.
 */
export function buildDataSourceOptions(target: DatabaseTarget, entities: DataSourceOptions['entities'] = []): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    entities,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    migrationsRun: false,
    // TypeORM's logger prints query parameters (e-mails, hashes); failures reach our error filter instead.
    logging: false,
  };
  if (target.url) {
    // pipeline: a connection sends statements queued together without waiting for each answer (see Transactions).
    return { ...common, url: target.url, extra: { max: 10, connectionTimeoutMillis: 5_000, pipeline: true } };
  }
  // The embedded database serves one connection at a time. A caller that waits for it longer than
  // 30 s gets an error rather than waiting for ever (a shutdown must not hang on it).
  return { ...common, host: target.socketDir, port: 5432, username: 'postgres', database: 'postgres', extra: { max: 1, connectionTimeoutMillis: 30_000 } };
}

/**
 * Whether `Transactions.query` runs its statements as named prepared statements (parsed and
 * planned once per connection). Only on PostgreSQL: the embedded server serves every connection in
 * one session, where a statement prepared by a connection that closed would clash with the next
 * one's. Behind PgBouncer in transaction mode, set its `max_prepared_statements` (1.21 and later).
 */
export function preparesStatements(options: DataSourceOptions): boolean {
  return 'url' in options && Boolean(options.url);
}
