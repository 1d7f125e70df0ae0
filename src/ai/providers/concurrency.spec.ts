import { AsyncQueue, Mutex, untilAborted } from './concurrency.js';

const tick = () => new Promise((r) => setImmediate(r));

describe('Mutex', () => {
  it('lets one holder in at a time, in arrival order', async () => {
    const mutex = new Mutex();
    const signal = new AbortController().signal;
    const order: string[] = [];
    const releaseA = await mutex.acquire(signal);
    const b = mutex.acquire(signal).then((release) => (order.push('b'), release));
    const c = mutex.acquire(signal).then((release) => (order.push('c'), release));
    await tick();
    expect(order).toEqual([]);
    releaseA();
    const releaseB = await b;
    await tick();
    expect(order).toEqual(['b']);
    releaseB();
    releaseB(); // a second release is harmless
    (await c)();
    expect(order).toEqual(['b', 'c']);
  });

  it('drops a waiter whose signal aborts, and keeps the line moving behind it', async () => {
    const mutex = new Mutex();
    const release = await mutex.acquire(new AbortController().signal);
    const leaving = new AbortController();
    const gone = mutex.acquire(leaving.signal);
    const next = mutex.acquire(new AbortController().signal);
    leaving.abort(new Error('client left'));
    await expect(gone).rejects.toThrow('client left');
    release();
    await expect(next).resolves.toEqual(expect.any(Function));
  });
});

describe('untilAborted', () => {
  it('settles like the promise, or rejects with the reason as soon as the signal aborts', async () => {
    await expect(untilAborted(Promise.resolve(1), new AbortController().signal)).resolves.toBe(1);
    const controller = new AbortController();
    const pending = untilAborted(new Promise(() => undefined), controller.signal);
    controller.abort(new Error('deadline'));
    await expect(pending).rejects.toThrow('deadline');
    await expect(untilAborted(Promise.resolve(1), controller.signal)).rejects.toThrow('deadline');
  });
});

describe('AsyncQueue', () => {
  it('yields what was pushed, before and after the consumer waits, then ends on close', async () => {
    const queue = new AsyncQueue<number>();
    queue.push(1);
    const seen: number[] = [];
    const consumed = (async () => {
      for await (const n of queue) seen.push(n);
    })();
    await tick();
    queue.push(2);
    queue.push(3);
    queue.close();
    queue.push(4); // after close: dropped
    await consumed;
    expect(seen).toEqual([1, 2, 3]);
  });

  it('throws the failure after the items pushed before it', async () => {
    const queue = new AsyncQueue<string>();
    queue.push('a');
    queue.fail(new Error('model crashed'));
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const s of queue) seen.push(s);
      })(),
    ).rejects.toThrow('model crashed');
    expect(seen).toEqual(['a']);
  });
});
