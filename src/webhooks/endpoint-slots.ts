import { JobDeferred } from '../queue/queue.types.js';

/** An attempt slower than this holds a worker slot too long: its endpoint's share halves. */
export const SLOW_ATTEMPT_MS = 1000;
/** A job over its endpoint's cap waits in the worker at most this long, and only when a slot is due sooner. */
export const SHORT_WAIT_MS = 100;
/** Bounds of the delay of a job sent back to the queue. */
export const MIN_DEFER_MS = 100;
export const MAX_DEFER_MS = 10 * 60_000;
/** Endpoints a worker keeps figures for; idle ones are forgotten beyond this. */
const MAX_LANES = 10_000;

/** How an attempt that held a slot went. */
export interface SlotOutcome {
  durationMs: number;
  timedOut: boolean;
}

export interface EndpointSlot {
  /** Gives the slot back (once; later calls do nothing), with how the attempt went if it was sent. */
  release(outcome?: SlotOutcome): void;
}

/** One endpoint's share of the worker. */
interface Lane {
  inFlight: number;
  /** The attempts in flight, by when they started. */
  started: Set<{ at: number }>;
  cap: number;
  /** Moving average of its attempts' durations; undefined until one has ended. */
  avgMs?: number;
  /** Jobs waiting in the worker for one of its slots, first come first served. */
  waiters: Array<() => void>;
  /** When the last job sent back to the queue is expected to find a slot. */
  nextFreeAt: number;
}

/**
 * Shares a worker's delivery slots (WEBHOOK_CONCURRENCY) between endpoints, so that one endpoint's
 * slow, failing or hanging receiver never holds up another endpoint's deliveries:
 *
 * - An endpoint has at most `cap` attempts in flight. The cap starts at an eighth of the slots,
 *   grows by one with each attempt that ends within a second and halves with each slower one or
 *   timeout, between an eighth and seven eighths: a healthy receiver soon has most of the worker,
 *   a hanging one an eighth, and an eighth is always left to the other endpoints.
 * - A job over its endpoint's cap waits in the worker only when one of the endpoint's slots is due
 *   within SHORT_WAIT_MS (a fast receiver at its cap). Otherwise it goes back to the queue
 *   (`JobDeferred`: the try does not count), delayed until the endpoint is expected to have room,
 *   its jobs spaced at the pace the endpoint answers; its worker slot takes the next job at once.
 *
 * The counts are per worker process: with n workers an endpoint may have n × cap attempts in flight.
 */
export class EndpointSlots {
  readonly minCap: number;
  readonly maxCap: number;
  private readonly lanes = new Map<string, Lane>();

  constructor(
    concurrency: number,
    /** WEBHOOK_TIMEOUT_MS: the longest an attempt holds a slot. */
    private readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.minCap = Math.max(1, Math.floor(concurrency / 8));
    this.maxCap = Math.max(this.minCap, concurrency - this.minCap);
  }

  /** A slot for one attempt to this endpoint: at once, after a short wait, or a rejection with `JobDeferred`. */
  take(endpointId: string): Promise<EndpointSlot> {
    const lane = this.lane(endpointId);
    if (lane.inFlight < lane.cap) return Promise.resolve(this.grant(lane));
    const due = this.slotDueInMs(lane);
    if (due === undefined || due > SHORT_WAIT_MS || lane.waiters.length >= this.minCap) return Promise.reject(this.deferral(lane));
    return new Promise((resolve, reject) => {
      const waiter = () => {
        clearTimeout(timer);
        resolve(this.grant(lane));
      };
      const timer = setTimeout(() => {
        lane.waiters.splice(lane.waiters.indexOf(waiter), 1);
        reject(this.deferral(lane));
      }, SHORT_WAIT_MS);
      lane.waiters.push(waiter);
    });
  }

  /** What the worker knows of an endpoint (tests, diagnostics). */
  stateOf(endpointId: string): { inFlight: number; cap: number; waiting: number } | undefined {
    const lane = this.lanes.get(endpointId);
    return lane && { inFlight: lane.inFlight, cap: lane.cap, waiting: lane.waiters.length };
  }

  private grant(lane: Lane): EndpointSlot {
    lane.inFlight++;
    const attempt = { at: this.now() };
    lane.started.add(attempt);
    let released = false;
    return {
      release: (outcome) => {
        if (released) return;
        released = true;
        lane.inFlight--;
        lane.started.delete(attempt);
        if (outcome) this.learn(lane, outcome);
        while (lane.waiters.length > 0 && lane.inFlight < lane.cap) lane.waiters.shift()!();
      },
    };
  }

  /** Additive increase, multiplicative decrease, as TCP does with its window. */
  private learn(lane: Lane, { durationMs, timedOut }: SlotOutcome): void {
    lane.avgMs = lane.avgMs === undefined ? durationMs : 0.8 * lane.avgMs + 0.2 * durationMs;
    const slow = timedOut || durationMs >= SLOW_ATTEMPT_MS;
    lane.cap = slow ? Math.max(this.minCap, Math.floor(lane.cap / 2)) : Math.min(this.maxCap, lane.cap + 1);
  }

  /** When the next of the endpoint's slots should free up, at its pace; undefined while nothing is known of its pace. */
  private slotDueInMs(lane: Lane): number | undefined {
    if (lane.avgMs === undefined) return undefined;
    return ((lane.waiters.length + 1) * this.paceMs(lane)) / lane.cap;
  }

  /**
   * What an attempt to this endpoint takes: its average, or longer while the oldest attempt in
   * flight has been running longer (a receiver that just started hanging).
   */
  private paceMs(lane: Lane): number {
    const now = this.now();
    let oldest = 0;
    for (const attempt of lane.started) oldest = Math.max(oldest, now - attempt.at);
    return Math.min(this.timeoutMs, Math.max(lane.avgMs ?? 0, oldest, 10));
  }

  /** Back to the queue until the endpoint should have room: one more job's share of its pace after the last one sent back. */
  private deferral(lane: Lane): JobDeferred {
    const now = this.now();
    lane.nextFreeAt = Math.max(lane.nextFreeAt, now) + this.paceMs(lane) / lane.cap;
    return new JobDeferred(Math.round(Math.min(MAX_DEFER_MS, Math.max(MIN_DEFER_MS, lane.nextFreeAt - now))));
  }

  private lane(endpointId: string): Lane {
    let lane = this.lanes.get(endpointId);
    if (!lane) {
      if (this.lanes.size >= MAX_LANES) this.forgetIdle();
      lane = { inFlight: 0, started: new Set(), cap: this.minCap, waiters: [], nextFreeAt: 0 };
      this.lanes.set(endpointId, lane);
    }
    return lane;
  }

  private forgetIdle(): void {
    for (const [id, lane] of this.lanes) {
      if (lane.inFlight === 0 && lane.waiters.length === 0) this.lanes.delete(id);
      if (this.lanes.size < MAX_LANES / 2) return;
    }
  }
}
