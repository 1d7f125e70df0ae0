import { Transactions } from '../../src/database/transactions.js';
import { unnestColumns } from '../../src/database/unnest-columns.js';
import { target } from '../support/fresh-database.js';
import { startTestModule, TestModule } from '../support/test-module.js';

// unnestColumns builds the array literals the set-wise writes send: every value must come back out of
// unnest as it went in, whatever characters it holds.
describe(`array literals for unnest (${target})`, () => {
  let t: TestModule;

  beforeAll(async () => {
    t = await startTestModule();
  });
  afterAll(() => t?.close());

  it('round-trips text with quotes, backslashes, commas, braces, spaces and NULL-like words, nulls, numbers, bigints and times', async () => {
    const texts = ['plain', '', ' ', 'a,b', '{x}', '"quoted"', 'back\\slash', '\\"', 'NULL', 'null', 'ünïcödé 🦊', '/a:b?c=d&e', "it's"];
    const rows = texts.map((text, i) => ({
      text: text as string | null,
      n: i - 3,
      big: (-(2n ** 63n) + BigInt(i)).toString(),
      at: new Date(Date.UTC(2026, 10, 28, 1, 2, 3, i)),
    }));
    rows.push({ text: null, n: 0, big: '0', at: new Date(0) });
    const back = await t
      .get(Transactions)
      .query<{ text: string | null; n: number; big: string; at: Date }>(
        `SELECT text, n, big::text AS big, at FROM unnest($1::text[], $2::int[], $3::bigint[], $4::timestamptz[]) AS u(text, n, big, at)`,
        unnestColumns(rows, ['text', 'n', 'big', 'at']),
      );
    expect(back.map((row) => ({ ...row, at: new Date(row.at) }))).toEqual(rows);
  });

  it('sends an empty array for no rows', async () => {
    const [row] = await t.get(Transactions).query<{ n: number }>(`SELECT cardinality($1::text[]) AS n`, unnestColumns([] as Array<{ a: string }>, ['a']));
    expect(row.n).toBe(0);
  });
});
