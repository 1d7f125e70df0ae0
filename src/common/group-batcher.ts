/**
 * Group commit for many concurrent callers of one piece of I/O: `add` queues an item and resolves
 * with its result once the batch holding it has run. A batch starts as soon as fewer than
 * `maxInFlight` run, so a lone caller waits for nothing; under load the queue fills while batches
 * run and each round trip serves many callers.
 */
export class GroupBatcher<I, O> {
  private queue: Array<{ item: I; resolve: (out: O) => void; reject: (err: unknown) => void }> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    /** Answers one result per item, in order. */
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly options: { maxBatch: number; maxInFlight: number },
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      // Callers in the same tick go together.
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.drain();
        });
      }
    });
  }

  private drain(): void {
    while (this.queue.length > 0 && this.inFlight < this.options.maxInFlight) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.inFlight++;
      // A synchronous throw of `run` rejects the batch like a failed promise.
      new Promise<O[]>((resolve) => resolve(this.run(batch.map((b) => b.item))))
        .then(
          (outs) => batch.forEach((b, i) => b.resolve(outs[i])),
          (err: unknown) => batch.forEach((b) => b.reject(err)),
        )
        .finally(() => {
          this.inFlight--;
          this.drain();
        });
    }
  }
}
