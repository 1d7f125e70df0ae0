import { BatchWriter } from './batch-writer.js';

/** A database answer as the pg driver gives it: a severity and a SQLSTATE. */
const refused = (code: string) => Object.assign(new Error('refused'), { severity: 'ERROR', code });

/** A table that refuses negative numbers (a data error) and, while `down`, everything (an outage). */
function table() {
  const rows: number[] = [];
  const tries: number[][] = [];
  const state = { down: false };
  const write = async (items: number[]) => {
    tries.push(items);
    if (state.down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    if (items.some((n) => n < 0)) throw refused('22021');
    rows.push(...items);
  };
  return { rows, tries, state, write };
}

describe('BatchWriter', () => {
  it('writes a good batch in one write', async () => {
    const t = table();
    const outcomes: boolean[] = [];
    const writer = new BatchWriter({ write: t.write, onOutcome: (ok) => outcomes.push(ok) });
    expect(await writer.write([1, 2, 3])).toEqual({ written: 3, setAside: [], unwritten: [] });
    expect(t.tries).toEqual([[1, 2, 3]]);
    expect(outcomes).toEqual([true]);
  });

  it('splits a batch the database refuses, sets the bad rows aside, writes the rest in order, and tells once', async () => {
    const t = table();
    const told: Array<{ items: number[]; code: unknown }> = [];
    const writer = new BatchWriter({ write: t.write, onSetAside: (items, err) => told.push({ items, code: (err as { code: string }).code }) });
    const items = Array.from({ length: 100 }, (_, i) => (i === 37 || i === 80 ? -i : i));
    const result = await writer.write(items);
    expect(result).toEqual({ written: 98, setAside: [-37, -80], unwritten: [] });
    expect(t.rows).toEqual(items.filter((n) => n >= 0));
    expect(told).toEqual([{ items: [-37, -80], code: '22021' }]);
    // Bisection: about 2·log2(n) writes per bad row, not one per row.
    expect(t.tries.length).toBeLessThanOrEqual(1 + 2 * 2 * Math.ceil(Math.log2(100)));
  });

  it('sets aside on class 23 too (a constraint), and a batch of bad rows only', async () => {
    const writer = new BatchWriter<number>({
      write: async () => {
        throw refused('23505');
      },
    });
    expect(await writer.write([1, 2, 3])).toEqual({ written: 0, setAside: [1, 2, 3], unwritten: [] });
  });

  it('keeps everything not yet written, in order, when the failure is not about the data (an outage)', async () => {
    const t = table();
    const outcomes: boolean[] = [];
    const writer = new BatchWriter({ write: t.write, onOutcome: (ok) => outcomes.push(ok) });
    t.state.down = true;
    const down = await writer.write([1, 2, -3, 4]);
    expect(down).toMatchObject({ written: 0, setAside: [], unwritten: [1, 2, -3, 4] });
    expect((down.error as Error).message).toContain('ECONNREFUSED');
    expect(t.tries).toHaveLength(1);
    // An outage in the middle of a split: what was written stays written, the rest comes back.
    t.state.down = false;
    let calls = 0;
    const flaky = new BatchWriter<number>({
      write: async (items) => {
        if (++calls === 3) throw new Error('Connection terminated unexpectedly');
        await t.write(items);
      },
      onOutcome: (ok) => outcomes.push(ok),
    });
    // [5, 6, -7, 8] fails (data) → [5, 6] written → [-7, 8] fails (outage): kept.
    expect(await flaky.write([5, 6, -7, 8])).toMatchObject({ written: 2, setAside: [], unwritten: [-7, 8] });
    expect(t.rows).toEqual([5, 6]);
    expect(outcomes).toEqual([false, false]);
  });

  it('takes another test of a data error', async () => {
    const writer = new BatchWriter<string>({
      write: async (items) => {
        if (items.includes('bad')) throw new Error('nope');
      },
      isDataError: (err) => (err as Error).message === 'nope',
    });
    expect(await writer.write(['a', 'bad', 'b'])).toEqual({ written: 2, setAside: ['bad'], unwritten: [] });
  });
});
