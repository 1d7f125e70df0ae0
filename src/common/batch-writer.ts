import { isDataError } from '../database/postgres-errors.js';

export interface BatchWriterOptions<T> {
  /** Writes the items, all or none (one transaction). */
  write: (items: T[]) => Promise<unknown>;
  /** Whether a failure comes from the items' data (fails again however often it is tried) rather than an outage. Default: SQLSTATE class 22 or 23. */
  isDataError?: (err: unknown) => boolean;
  /** Told once per `write` call that ended with some items set aside, with the last error they failed on. */
  onSetAside?: (items: T[], err: unknown) => void;
  /** Told after each `write` call whether the path moved (`ok`: everything written or set aside) or an outage stopped it. */
  onOutcome?: (ok: boolean, err?: unknown) => void;
}

export interface BatchWriteResult<T> {
  written: number;
  /** Items the database refused for their own data: never to be tried again. */
  setAside: T[];
  /** Items not tried, or tried when the database was unreachable, in their order: for the next try. Empty when the path moved. */
  unwritten: T[];
  /** The outage that left `unwritten`. */
  error?: unknown;
}

/**
 * Writes batches so that one bad item never blocks the others. A batch that fails on its data is
 * split in halves and each half tried on its own, down to single items; an item that still fails
 * is set aside and the rest are written — about 2·log2(n) extra writes per bad item. A failure
 * that is not about the data (the database down) stops at once and hands back what is left, in
 * order, for the caller to try again later. Used by every background batch writer (analytics,
 * usage rollups, delivery attempts); nothing here knows what the items are.
 */
export class BatchWriter<T> {
  private readonly isDataError: (err: unknown) => boolean;

  constructor(private readonly options: BatchWriterOptions<T>) {
    this.isDataError = options.isDataError ?? isDataError;
  }

  async write(items: T[]): Promise<BatchWriteResult<T>> {
    const result: BatchWriteResult<T> = { written: 0, setAside: [], unwritten: [] };
    let dataError: unknown;
    // The parts still to write, in order: the first is tried next.
    const parts: T[][] = items.length > 0 ? [items] : [];
    while (parts.length > 0) {
      const part = parts.shift()!;
      try {
        await this.options.write(part);
        result.written += part.length;
      } catch (err) {
        if (!this.isDataError(err)) {
          result.unwritten = [part, ...parts].flat();
          result.error = err;
          break;
        }
        dataError = err;
        if (part.length === 1) result.setAside.push(part[0]);
        else parts.unshift(part.slice(0, Math.ceil(part.length / 2)), part.slice(Math.ceil(part.length / 2)));
      }
    }
    if (result.setAside.length > 0) this.options.onSetAside?.(result.setAside, dataError);
    this.options.onOutcome?.(result.unwritten.length === 0, result.error);
    return result;
  }
}
