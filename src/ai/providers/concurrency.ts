/** One holder at a time, in arrival order; a waiter whose signal aborts leaves the line. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  async acquire(signal: AbortSignal): Promise<() => void> {
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => mine);
    try {
      await untilAborted(previous, signal);
    } catch (err) {
      // Gone before our turn: hand it on as soon as it would have come.
      void previous.then(release);
      throw err;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  }
}

/** `promise`, or the signal's reason as soon as it aborts (the work itself goes on). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/** Turns callbacks (push/close/fail) into an async iterable with one consumer. */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting?: { resolve: () => void };
  private closed = false;
  private error: { reason: unknown } | undefined;

  push(item: T): void {
    if (this.closed) return;
    this.items.push(item);
    this.wake();
  }

  close(): void {
    this.closed = true;
    this.wake();
  }

  fail(reason: unknown): void {
    if (this.closed) return;
    this.error = { reason };
    this.close();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      if (this.items.length > 0) {
        yield this.items.shift()!;
        continue;
      }
      if (this.error) throw this.error.reason;
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.waiting = { resolve }));
    }
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve();
  }
}
