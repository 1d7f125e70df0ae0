import { DataSource, EntityManager, QueryFailedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { Transactions } from '../../src/database/transactions.js';
import { target } from '../support/fresh-database.js';
import { startTestModule, TestModule } from '../support/test-module.js';

// Transactions sends BEGIN with a transaction's first statement and queued writes with the next
// statement or the COMMIT (pipelined on PostgreSQL, one after another on the embedded server).
// These pin down what that must not change: order, atomicity, errors, and a clean connection after.
describe(`transactions: pipelined statements and queued writes (${target})`, () => {
  let t: TestModule;
  let db: Transactions;
  const rows = async () => (await t.query<{ id: string; n: number }>(`SELECT id, n FROM tx_probe ORDER BY id`)).map((r) => `${r.id}=${r.n}`);

  beforeAll(async () => {
    t = await startTestModule();
    db = t.get(Transactions);
    await t.query(`CREATE TABLE tx_probe (id varchar(20) PRIMARY KEY, n integer NOT NULL CHECK (n >= 0))`);
  });
  afterAll(async () => {
    await t.query(`DROP TABLE IF EXISTS tx_probe`);
    await t.close();
  });
  beforeEach(() => t.query(`DELETE FROM tx_probe`));

  it('a queued write commits with the transaction, and its statements (ours and TypeORM’s) see it', async () => {
    const seen = await db.run(async () => {
      db.queueWrite(`INSERT INTO tx_probe (id, n) VALUES ($1, $2)`, ['a', 1]);
      db.queueWrite(`INSERT INTO tx_probe (id, n) VALUES ($1, $2)`, ['b', 2]);
      // On PostgreSQL the queued rows are not visible outside before the COMMIT (the embedded server
      // has one connection, which this transaction holds).
      if (target === 'postgres') expect(await t.query(`SELECT id FROM tx_probe`)).toEqual([]);
      const ours = await db.query<{ id: string }>(`SELECT id FROM tx_probe ORDER BY id`);
      const typeOrms: Array<{ id: string }> = await db.manager.query(`SELECT id FROM tx_probe WHERE n > 1`);
      db.queueWrite(`UPDATE tx_probe SET n = n + 10 WHERE id = $1`, ['a']);
      return { ours: ours.map((r) => r.id), typeOrms: typeOrms.map((r) => r.id) };
    });
    expect(seen).toEqual({ ours: ['a', 'b'], typeOrms: ['b'] });
    expect(await rows()).toEqual(['a=11', 'b=2']);
  });

  it('a queued write that fails fails the transaction: nothing of it is kept, and the connection works after', async () => {
    const failure = await db
      .run(async () => {
        await db.query(`INSERT INTO tx_probe (id, n) VALUES ($1, $2)`, ['kept-not', 1]);
        db.queueWrite(`INSERT INTO tx_probe (id, n) VALUES ($1, $2)`, ['negative', -1]); // fails its CHECK
        db.queueWrite(`INSERT INTO tx_probe (id, n) VALUES ($1, $2)`, ['after', 3]);
        return 'committed';
      })
      .catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(QueryFailedError);
    expect((failure as QueryFailedError & { driverError: { code: string; constraint: string } }).driverError).toMatchObject({
      code: '23514',
      constraint: 'tx_probe_n_check',
    });
    expect(await rows()).toEqual([]);
    // Every connection of the pool is back in a clean state: the next transactions commit.
    await Promise.all(['x', 'y', 'z'].map((id) => db.run(async () => db.queueWrite(`INSERT INTO tx_probe (id, n) VALUES ($1, 1)`, [id]))));
    expect(await rows()).toEqual(['x=1', 'y=1', 'z=1']);
  });

  it('a queued write before a failing read rolls back with it; reads sent together each get their own answer', async () => {
    await t.query(`INSERT INTO tx_probe (id, n) VALUES ('one', 1), ('two', 2)`);
    const [one, two] = await db.run(() =>
      Promise.all([
        db.query<{ n: number }>(`SELECT n FROM tx_probe WHERE id = $1`, ['one']),
        db.query<{ n: number }>(`SELECT n FROM tx_probe WHERE id = $1`, ['two']),
      ]),
    );
    expect([one, two]).toEqual([[{ n: 1 }], [{ n: 2 }]]);

    const failure = await db
      .run(async () => {
        db.queueWrite(`UPDATE tx_probe SET n = 100 WHERE id = $1`, ['one']);
        await Promise.all([db.query(`SELECT n / 0 FROM tx_probe WHERE id = $1`, ['two']), db.query(`SELECT n FROM tx_probe WHERE id = $1`, ['one'])]);
      })
      .catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(QueryFailedError);
    expect((failure as QueryFailedError).message).toMatch(/division by zero/);
    expect(await rows()).toEqual(['one=1', 'two=2']);
  });

  it('a transaction that throws before any statement sends nothing and commits nothing', async () => {
    await expect(
      db.run(async () => {
        db.queueWrite(`INSERT INTO tx_probe (id, n) VALUES ($1, 1)`, ['never']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await rows()).toEqual([]);
  });

  it('a TypeORM query runner only for a transaction whose repositories use `manager`: one, on its connection, done with it after', async () => {
    const dataSource = t.get(DataSource);
    const createQueryRunner = dataSource.createQueryRunner;
    let made = 0;
    dataSource.createQueryRunner = (...args) => (made++, createQueryRunner.apply(dataSource, args));
    try {
      await db.run(async () => {
        db.queueWrite(`INSERT INTO tx_probe (id, n) VALUES ($1, 1)`, ['plain']);
        await db.query(`SELECT id FROM tx_probe`);
      });
      expect(made).toBe(0);

      let kept: EntityManager | undefined;
      const [pid, ormPid, again] = await db.run(async () => {
        const [{ pid }] = await db.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid`);
        kept = db.manager;
        const [{ pid: ormPid }]: Array<{ pid: number }> = await kept.query(`SELECT pg_backend_pid() AS pid`);
        const [{ pid: again }]: Array<{ pid: number }> = await db.manager.query(`SELECT pg_backend_pid() AS pid`);
        return [pid, ormPid, again];
      });
      expect(made).toBe(1);
      expect([ormPid, again]).toEqual([pid, pid]);
      // Its connection went back to the pool: a manager kept past the transaction cannot run anything on it.
      await expect(kept!.query(`SELECT 1`)).rejects.toBeInstanceOf(QueryRunnerProviderAlreadyReleasedError);
    } finally {
      dataSource.createQueryRunner = createQueryRunner;
    }
    expect(await rows()).toEqual(['plain=1']);
  });

  it('queueWrite outside a transaction is a programming error', () => {
    expect(() => db.queueWrite(`INSERT INTO tx_probe (id, n) VALUES ($1, 1)`, ['loose'])).toThrow(/Transactions\.run/);
  });
});
