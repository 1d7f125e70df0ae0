import { untilFirstOutput } from './first-output.js';

async function* items<T>(values: T[], failAfter?: number): AsyncGenerator<T> {
  for (const [i, value] of values.entries()) {
    if (i === failAfter) throw new Error('broke');
    yield value;
  }
}

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('untilFirstOutput', () => {
  it('reads up to the first output, says it started, and answers the whole stream', async () => {
    let started = 0;
    const stream = await untilFirstOutput(
      items(['role', 'a', 'b']),
      (x) => x !== 'role',
      () => started++,
    );
    expect(started).toBe(1);
    expect(await all(stream)).toEqual(['role', 'a', 'b']);
  });

  it('rejects when the stream fails before any output (a fallback may follow), and never says it started', async () => {
    let started = 0;
    await expect(
      untilFirstOutput(
        items(['role', 'a'], 1),
        (x) => x !== 'role',
        () => started++,
      ),
    ).rejects.toThrow('broke');
    expect(started).toBe(0);
  });

  it('fails the stream, not the start, after the first output', async () => {
    const stream = await untilFirstOutput(
      items(['a', 'b', 'c'], 2),
      () => true,
      () => undefined,
    );
    await expect(all(stream)).rejects.toThrow('broke');
  });

  it('stops the stream underneath when its reader leaves early', async () => {
    let finished = false;
    async function* source() {
      try {
        yield 'a';
        yield 'b';
        yield 'c';
      } finally {
        finished = true;
      }
    }
    const stream = await untilFirstOutput(
      source(),
      () => true,
      () => undefined,
    );
    for await (const item of stream) if (item === 'a') break;
    expect(finished).toBe(true);
  });
});
