import { Injectable, Logger } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryConfig } from 'pg';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { preparesStatements } from './data-source-options.js';

interface TransactionScope {
  manager: EntityManager;
  afterCommit: Array<() => unknown>;
}

/**
 * The one way to reach the database. Services wrap a change in `run(...)`; repositories read
 * `manager`, which is the running transaction's (carried by AsyncLocalStorage) or the pool's. So a
 * service never hands an EntityManager to anyone, and everything a change writes — its rows and
 * its events (the outbox) — commits together or not at all.
 */
@Injectable()
export class Transactions {
  private readonly logger = new Logger('Transactions');
  private readonly scope = new AsyncLocalStorage<TransactionScope>();
  /** Transactions running now; with none, the AsyncLocalStorage is switched off (see `withScope`). */
  private running = 0;

  /** Statement names by SQL text (see `statement`). */
  private readonly statementNames = new Map<string, string>();
  private readonly prepares: boolean;

  constructor(private readonly dataSource: DataSource) {
    this.prepares = preparesStatements(dataSource.options);
  }

  /**
   * Runs `work` in a transaction, or inside the caller's when there is one already. Hooks added with
   * `afterCommit` run once the outermost transaction has committed, outside of it.
   */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.scope.getStore()) return work();
    const afterCommit: Array<() => unknown> = [];
    const result = await this.withScope(() => this.dataSource.transaction((manager) => this.scope.run({ manager, afterCommit }, work)));
    await this.runAfterCommit(afterCommit);
    return result;
  }

  /**
   * Several reads that must agree with each other (a delivery and its attempts): one snapshot,
   * REPEATABLE READ, in a transaction of their own (or the caller's, when there is one).
   */
  async snapshot<T>(work: () => Promise<T>): Promise<T> {
    if (this.scope.getStore()) return work();
    return this.withScope(() => this.dataSource.transaction('REPEATABLE READ', (manager) => this.scope.run({ manager, afterCommit: [] }, work)));
  }

  /**
   * An enabled AsyncLocalStorage makes Node (20) run a hook on every promise the process creates,
   * about 8% of a read request's CPU (see bench/). So the storage is on only while a transaction
   * runs: `scope.run` switches it on, and the last transaction to end switches it off. Nothing
   * outside a transaction reads its scope, so nothing is lost.
   */
  private async withScope<T>(transaction: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await transaction();
    } finally {
      if (--this.running === 0) this.scope.disable();
    }
  }

  private async runAfterCommit(afterCommit: Array<() => unknown>): Promise<void> {
    for (const hook of afterCommit) {
      try {
        await hook();
      } catch (err) {
        // The change is committed; what follows it (dispatching, enqueueing) has its own recovery.
        this.logger.error({ err }, 'An after-commit hook failed');
      }
    }
  }

  /** Runs `hook` after the current transaction commits; never if it rolls back. */
  afterCommit(hook: () => unknown): void {
    const scope = this.scope.getStore();
    if (!scope) throw new Error('afterCommit() needs a transaction: call it inside Transactions.run()');
    scope.afterCommit.push(hook);
  }

  get active(): boolean {
    return this.scope.getStore() !== undefined;
  }

  /**
   * For repositories' plain SQL on the hot paths: the rows, read in the running transaction, or
   * straight from the driver's pool outside of one — on the driver's connection, without a TypeORM
   * query runner per statement, which costs more than a small query itself (see bench/). Each SQL
   * text is a prepared statement, parsed and planned once per connection (on PostgreSQL; see
   * `preparesStatements`), so pass static SQL with $n parameters. Errors are TypeORM's
   * QueryFailedError either way.
   */
  async query<T>(sql: string, parameters: unknown[] = []): Promise<T[]> {
    const scope = this.scope.getStore();
    const driver: Pick<Pool, 'query'> = scope
      ? ((scope.manager.queryRunner as unknown as { databaseConnection: PoolClient }).databaseConnection as Pick<Pool, 'query'>)
      : (this.dataSource.driver as unknown as { master: Pool }).master;
    try {
      return (await driver.query<T & object>(this.statement(sql, parameters))).rows;
    } catch (err) {
      throw new QueryFailedError(sql, parameters, err as Error);
    }
  }

  private statement(text: string, values: unknown[]): QueryConfig {
    if (!this.prepares) return { text, values };
    let name = this.statementNames.get(text);
    if (name === undefined) {
      name = `q_${createHash('sha1').update(text).digest('base64url')}`;
      this.statementNames.set(text, name);
    }
    return { name, text, values };
  }

  /** For repositories: the running transaction's manager, or the pool's outside of one. */
  get manager(): EntityManager {
    return this.scope.getStore()?.manager ?? this.dataSource.manager;
  }
}
