import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** What a worker is asked: a copy of `input` (bytes, or a file it reads itself) in one encoding at one level. */
export interface CompressionJob {
  input: Buffer | { path: string };
  encoding: 'gzip' | 'br';
  level: number;
}

/**
 * The worker's code, inline (so it runs the same from the TypeScript sources and from dist): it
 * compresses synchronously — its own thread, not libuv's pool, which password hashing and file reads share.
 */
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const { setPriority } = require('node:os');
const zlib = require('node:zlib');
// On Linux a priority set with pid 0 is this thread's alone: at nice 19 compression yields the cores to the event loop (no privilege needed to lower it).
try { setPriority(0, workerData.nice); } catch {}
parentPort.on('message', ({ id, input, encoding, level }) => {
  try {
    const bytes = input.path === undefined ? input : readFileSync(input.path);
    const out =
      encoding === 'gzip'
        ? zlib.gzipSync(bytes, { level })
        : zlib.brotliCompressSync(bytes, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: level,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            },
          });
    const copy = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    parentPort.postMessage({ id, out: copy }, out.byteOffset === 0 && out.byteLength === out.buffer.byteLength ? [out.buffer] : []);
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message || err) });
  }
});
`;

interface Pending {
  job: CompressionJob;
  resolve: (out: Buffer) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
}

/**
 * A few worker threads (at most the cores but one, so the event loop always has one) that make
 * compressed copies, with a bounded queue: a job offered when the queue is full is refused at once
 * (`submit` → null) and the file is served as it is, or gzip, until a later read offers it again.
 * One compression at a time per worker: an anonymous burst of large files costs the workers' cores,
 * never the requests of others (see docs/decisions/2026-11-29-compression-pool.md).
 */
export class CompressionPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 0;
  private closed = false;

  constructor(
    readonly size: number,
    readonly maxQueue: number,
    /** The workers' nice level (19: the lowest priority). */
    readonly nice = 19,
  ) {}

  /** Workers for this machine: `configured` (0: the cores but one, at least one), never more than the cores but one. */
  static sizeFor(configured: number, cores = availableParallelism()): number {
    const most = Math.max(1, cores - 1);
    return configured === 0 ? most : Math.min(configured, most);
  }

  /** The compressed bytes; null when the pool is full or closed (nothing is queued then). Rejects if the worker fails. */
  submit(job: CompressionJob): Promise<Buffer> | null {
    if (this.closed) return null;
    const idle = this.idleSlot();
    if (!idle && this.queue.length >= this.maxQueue) return null;
    return new Promise<Buffer>((resolve, reject) => {
      const pending = { job, resolve, reject };
      if (idle) this.run(idle, pending);
      else this.queue.push(pending);
    });
  }

  /** Jobs running and waiting (metrics, tests). */
  get load(): { running: number; queued: number } {
    return { running: this.slots.filter((s) => s.busy).length, queued: this.queue.length };
  }

  /** Stops the workers; jobs waiting or running are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('compression pool closed'));
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  private idleSlot(): Slot | undefined {
    const idle = this.slots.find((slot) => !slot.busy);
    if (idle) return idle;
    if (this.slots.length >= this.size) return undefined;
    const slot = this.startWorker();
    return slot;
  }

  private startWorker(): Slot {
    // Not holding the process open: a server closing does not wait on an idle worker.
    const worker = new Worker(WORKER_CODE, { eval: true, workerData: { nice: this.nice } });
    worker.unref();
    const slot: Slot = { worker, busy: null };
    worker.on('message', (message: { out?: Uint8Array; error?: string }) => {
      const pending = slot.busy;
      slot.busy = null;
      if (pending) {
        if (message.out) pending.resolve(Buffer.from(message.out.buffer, message.out.byteOffset, message.out.byteLength));
        else pending.reject(new Error(message.error ?? 'compression failed'));
      }
      this.next(slot);
    });
    worker.on('error', (err) => this.lost(slot, err));
    worker.on('exit', () => this.lost(slot, new Error('compression worker exited')));
    this.slots.push(slot);
    return slot;
  }

  /** A worker that died: its job fails (the file is served uncompressed), and a new one takes the queue. */
  private lost(slot: Slot, err: Error): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    slot.busy?.reject(err);
    slot.busy = null;
    if (this.closed) return;
    const next = this.queue.shift();
    if (next) this.run(this.startWorker(), next);
  }

  private next(slot: Slot): void {
    const pending = this.queue.shift();
    if (pending) this.run(slot, pending);
  }

  private run(slot: Slot, pending: Pending): void {
    slot.busy = pending;
    const { input, encoding, level } = pending.job;
    slot.worker.postMessage({ id: ++this.nextId, input, encoding, level });
  }
}

/** Brotli's quality by size: the best for what a page loads first, less where the best costs seconds of a core. */
export function brotliLevelFor(size: number): number {
  if (size <= 512 * 1024) return 11;
  if (size <= 2 * 1024 * 1024) return 9;
  return 5;
}

/** gzip's level by size (9 costs about six times 6 for a few per cent on large files). */
export function gzipLevelFor(size: number): number {
  return size <= 1024 * 1024 ? 9 : 6;
}
