/**
 * Reads a stream until its first output (as `isOutput` says), then calls `started` and answers the
 * whole stream, what was read included. A failure before the first output rejects (so the model's
 * next target can be tried); the caller stopping early stops the stream underneath.
 */
export async function untilFirstOutput<T>(items: AsyncIterable<T>, isOutput: (item: T) => boolean, started: () => void): Promise<AsyncIterable<T>> {
  const iterator = items[Symbol.asyncIterator]();
  const held: T[] = [];
  let ended = false;
  for (;;) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    held.push(next.value);
    if (isOutput(next.value)) break;
  }
  started();
  return (async function* () {
    let finished = ended;
    try {
      yield* held;
      while (!finished) {
        const next = await iterator.next();
        if (next.done) finished = true;
        else yield next.value;
      }
    } finally {
      // Left early (the client went away): stop the stream underneath.
      if (!finished) await iterator.return?.();
    }
  })();
}
