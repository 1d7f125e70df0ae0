import { GroupBatcher } from './group-batcher.js';

describe('GroupBatcher', () => {
  it('runs callers of one tick as one batch, in order', async () => {
    const batches: number[][] = [];
    const batcher = new GroupBatcher<number, number>(async (items) => (batches.push(items), items.map((n) => n * 10)), { maxBatch: 10, maxInFlight: 1 });
    await expect(Promise.all([1, 2, 3].map((n) => batcher.add(n)))).resolves.toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('queues while a batch runs, and splits at maxBatch', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const batcher = new GroupBatcher<number, number>(
      async (items) => {
        batches.push(items);
        if (batches.length === 1) await gate;
        return items;
      },
      { maxBatch: 2, maxInFlight: 1 },
    );
    const first = batcher.add(1);
    await new Promise((r) => setImmediate(r));
    const rest = [2, 3, 4].map((n) => batcher.add(n));
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([[1]]);
    release();
    await expect(Promise.all([first, ...rest])).resolves.toEqual([1, 2, 3, 4]);
    expect(batches).toEqual([[1], [2, 3], [4]]);
  });

  it('rejects every caller of a failed batch, and goes on with the next', async () => {
    let fail = true;
    const batcher = new GroupBatcher<number, number>(
      async (items) => {
        if (fail) throw new Error('down');
        return items;
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    const failed = [batcher.add(1), batcher.add(2)];
    await expect(Promise.allSettled(failed)).resolves.toEqual([
      { status: 'rejected', reason: new Error('down') },
      { status: 'rejected', reason: new Error('down') },
    ]);
    fail = false;
    await expect(batcher.add(3)).resolves.toBe(3);
  });

  it('rejects the callers of a batch whose runner throws instead of returning a promise', async () => {
    const batcher = new GroupBatcher<number, number>(
      () => {
        throw new Error('sync');
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    await expect(batcher.add(1)).rejects.toThrow('sync');
    await expect(batcher.add(2)).rejects.toThrow('sync');
  });
});
