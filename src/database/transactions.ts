import { Injectable, Logger } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { Pool, PoolClient, QueryConfig, QueryResult } from 'pg';
import { DataSource, EntityManager, QueryFailedError, QueryRunner } from 'typeorm';
import { preparesStatements } from './data-source-options.js';
import { sqlStateOf } from './postgres-errors.js';

interface TransactionScope {
  /** The transaction's connection. */
  client: PoolClient;
  /** A TypeORM query runner on that connection, made the first time a repository asks for `manager`. */
  runner?: QueryRunner;
  /** Statements not sent yet (BEGIN, queued writes): they go out ahead of the next one (see `send`). */
  queued: QueryConfig[];
  /** Whether BEGIN has gone out (a transaction that never ran a statement has nothing to roll back). */
  begun: boolean;
  /** On a connection that does not pipeline: settles when the statements sent so far have (see `sendInTurn`). */
  inTurn: Promise<unknown>;
  afterCommit: Array<() => unknown>;
}

/**
 * The one way to reach the database. Services wrap a change in `run(...)`; repositories read
 * `manager`, which is the running transaction's (carried by AsyncLocalStorage) or the pool's. So a
 * service never hands an EntityManager to anyone, and everything a change writes — its rows and
 * its events (the outbox) — commits together or not at all.
 *
 * Round trips (docs/decisions/2026-11-25-deploy-in-two-round-trips.md): a transaction's BEGIN goes out with its first statement, and writes
 * whose result nobody waits for (`queueWrite`) go out with the statement after them or with the
 * COMMIT — in one round trip on PostgreSQL, whose connections pipeline (see `send`).
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
    const result = await this.transaction('BEGIN', afterCommit, work);
    await this.runAfterCommit(afterCommit);
    return result;
  }

  /**
   * Several reads that must agree with each other (a delivery and its attempts): one snapshot,
   * REPEATABLE READ, in a transaction of their own (or the caller's, when there is one).
   */
  async snapshot<T>(work: () => Promise<T>): Promise<T> {
    if (this.scope.getStore()) return work();
    return this.transaction('BEGIN ISOLATION LEVEL REPEATABLE READ', [], work);
  }

  /**
   * A transaction on a connection of TypeORM's pool, begun and ended here rather than by TypeORM's
   * `transaction()` so that BEGIN and COMMIT can share round trips with the statements next to them.
   * Plain SQL (`query`, `queueWrite`) goes straight to the connection; a TypeORM query runner on it
   * is made only when a repository uses `manager` (see `runnerOf`): most hot writes never do, and a
   * query runner costs more to make than a small statement (docs/decisions/2026-11-25-lazy-query-runner.md).
   */
  private async transaction<T>(begin: string, afterCommit: Array<() => unknown>, work: () => Promise<T>): Promise<T> {
    const driver = this.dataSource.driver as unknown as { obtainMasterConnection(): Promise<[PoolClient, (err?: unknown) => void]> };
    const [client, release] = await driver.obtainMasterConnection();
    // While checked out, the pool does not listen for the connection's errors: an 'error' event with no listener would end the process.
    let broken: unknown;
    const onError = (err: unknown) => (broken ??= err);
    client.on('error', onError);
    const scope: TransactionScope = { client, queued: [{ text: begin }], begun: false, inTurn: Promise.resolve(), afterCommit };
    try {
      const result = await this.withScope(() => this.scope.run(scope, work));
      await this.send(scope, { text: 'COMMIT' });
      return result;
    } catch (err) {
      scope.queued = [];
      // (After a failed queued write the pipelined COMMIT has rolled back already; a second ROLLBACK is a no-op.)
      if (scope.begun) await this.send(scope, { text: 'ROLLBACK' }).catch((rollbackFailed: unknown) => (broken ??= rollbackFailed));
      throw err;
    } finally {
      if (scope.runner) retire(scope.runner);
      client.removeListener('error', onError);
      release(broken); // a connection that failed leaves the pool
    }
  }

  /**
   * The transaction's TypeORM query runner: one on the transaction's connection, marked as in a
   * transaction as TypeORM marks its own, so that its manager opens savepoints, never a second
   * transaction; its statements follow the queued ones (a row they read, a key they point at).
   */
  private runnerOf(scope: TransactionScope): QueryRunner {
    if (scope.runner) return scope.runner;
    // The fields TypeORM's own connect() and startTransaction() set: connect() answers this connection, never the pool's.
    const runner = Object.assign(this.dataSource.createQueryRunner(), { databaseConnection: scope.client, isTransactionActive: true, transactionDepth: 1 });
    const typeOrmQuery = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
    runner.query = (async (...args: unknown[]) => {
      if (scope.queued.length > 0) await this.send(scope);
      return typeOrmQuery(...args);
    }) as QueryRunner['query'];
    return (scope.runner = runner);
  }

  /**
   * An enabled AsyncLocalStorage makes Node (20) run a hook on every promise the process creates,
   * about 8% of a read request's CPU (docs/decisions/2026-11-24-async-local-storage-only-in-transactions.md). So the storage is on only while a transaction
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
   * The one way repositories run plain SQL (a lint rule forbids `.query(` on TypeORM's managers and
   * data sources outside src/database/): the rows, read in the running transaction, or straight
   * from the driver's pool outside of one — on the driver's connection, without a TypeORM query
   * runner per statement, which costs more than a small query itself (docs/decisions/2026-11-24-prepared-statements.md).
   * Each SQL text is a prepared statement, parsed and planned once per connection (on PostgreSQL;
   * see `preparesStatements`), so pass SQL with $n parameters whose text comes from a few fixed
   * variants. SQL built per call (DDL naming a partition, filters chosen by the caller) passes
   * `{ prepare: false }`: sent as it is, kept nowhere. Errors are TypeORM's QueryFailedError either way.
   */
  async query<T>(sql: string, parameters: unknown[] = [], options: { prepare?: boolean } = {}): Promise<T[]> {
    const statement = options.prepare === false ? { text: sql, values: parameters } : this.statement(sql, parameters);
    const scope = this.scope.getStore();
    if (scope) return (await this.send<T>(scope, statement)).rows;
    try {
      return (await this.onPool<T>(statement)).rows;
    } catch (err) {
      throw this.failed({ text: sql, values: parameters }, err);
    }
  }

  /**
   * One statement on a connection of the pool, as `pool.query` runs it — but a statement the
   * server refuses (a SQLSTATE: a unique key, a value out of range) gives its connection back for
   * the next caller, as TypeORM does, where `pool.query` would close it: only a connection that
   * failed itself leaves the pool.
   */
  private async onPool<T>(statement: QueryConfig): Promise<QueryResult<T & object>> {
    const client = await (this.dataSource.driver as unknown as { master: Pool }).master.connect();
    // While checked out, the pool does not listen for the connection's errors: an 'error' event with no listener would end the process.
    let broken: unknown;
    const onError = (err: unknown) => (broken ??= err);
    client.on('error', onError);
    try {
      return await client.query<T & object>(statement);
    } catch (err) {
      if (sqlStateOf(err) === undefined) broken ??= err;
      throw err;
    } finally {
      client.removeListener('error', onError);
      client.release(broken as Error | undefined);
    }
  }

  /**
   * A write in the running transaction whose result the caller does not need (an outbox row, a
   * ledger row): sent with the transaction's next statement or its COMMIT, in the same round trip.
   * It fails the transaction as any statement would, only later: `run` rejects with its error. Static
   * SQL with $n parameters, as for `query`.
   */
  queueWrite(sql: string, parameters: unknown[]): void {
    const scope = this.scope.getStore();
    if (!scope) throw new Error('queueWrite() needs a transaction: call it inside Transactions.run()');
    scope.queued.push(this.statement(sql, parameters));
  }

  /**
   * Sends the queued statements and then `last` (if any) on the transaction's connection, and
   * answers `last`'s result. On a pipelining connection they all go out at once; on others, one
   * after another. A queued statement that fails fails the call; the transaction is then aborted
   * and PostgreSQL answers what follows (a COMMIT included) with errors or a rollback.
   */
  private async send<T>(scope: TransactionScope, last?: QueryConfig): Promise<QueryResult<T & object>> {
    const statements = last ? [...scope.queued, last] : scope.queued;
    scope.queued = [];
    scope.begun = true;
    const client = scope.client as PoolClient & { pipeline?: boolean; connection?: { stream?: Writable } };
    if (!client.pipeline) return this.sendInTurn(scope, statements);
    // pg writes each statement to the socket on the spot. Corked until the next tick, the statements
    // sent in this tick (these, and those of a concurrent read) leave in one write.
    const stream = client.connection?.stream;
    if (stream) {
      stream.cork();
      process.nextTick(() => stream.uncork());
    }
    const pending = statements.map((s) => client.query<T & object>(s));
    const results = await Promise.allSettled(pending);
    const failure = results.findIndex((r) => r.status === 'rejected');
    if (failure >= 0) throw this.failed(statements[failure], (results[failure] as PromiseRejectedResult).reason);
    return (results.at(-1) as PromiseFulfilledResult<QueryResult<T & object>>).value;
  }

  /** `send` on a connection that does not pipeline: one statement after another, and after any the transaction sent before. */
  private sendInTurn<T>(scope: TransactionScope, statements: QueryConfig[]): Promise<QueryResult<T & object>> {
    const sent = scope.inTurn.then(async () => {
      let result: QueryResult<T & object> | undefined;
      for (const s of statements) {
        try {
          result = await scope.client.query<T & object>(s);
        } catch (err) {
          throw this.failed(s, err);
        }
      }
      return result!;
    });
    scope.inTurn = sent.catch(() => undefined);
    return sent;
  }

  private failed(statement: QueryConfig, err: unknown): QueryFailedError {
    return new QueryFailedError(statement.text, statement.values ?? [], err as Error);
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
    const scope = this.scope.getStore();
    return scope ? this.runnerOf(scope).manager : this.dataSource.manager;
  }
}

/** A query runner whose transaction has ended: usable no more (its connection went back to the pool without it). */
function retire(runner: QueryRunner): void {
  Object.assign(runner, { isTransactionActive: false, transactionDepth: 0, isReleased: true });
}
