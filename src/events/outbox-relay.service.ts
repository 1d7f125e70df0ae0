import { Injectable, Logger } from '@nestjs/common';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { EventDispatcher } from './event-dispatcher.js';

const RELAY_INTERVAL_MS = 5_000;
/** An event younger than this is still the raising process's to dispatch. */
const RELAY_GRACE_MS = 5_000;

/**
 * In worker processes: dispatches events that were committed but never dispatched — the raising
 * process died between its commit and the dispatch, or a listener failed. Runs at start (every
 * leftover is due then) and every few seconds; several workers share the work through SKIP LOCKED.
 */
@Injectable()
export class OutboxRelay {
  private readonly logger = new Logger('OutboxRelay');

  constructor(
    jobs: PeriodicJobs,
    private readonly dispatcher: EventDispatcher,
  ) {
    jobs.add({
      name: 'outbox-relay',
      schedule: { everyMs: RELAY_INTERVAL_MS },
      runsOn: 'workers',
      atStart: true,
      run: ({ reason, signal }) => this.relay(reason === 'start' ? 0 : RELAY_GRACE_MS, signal),
    });
  }

  /** One pass: everything raised more than `graceMs` ago and still undispatched (until `signal` aborts: the next process carries on). */
  async relay(graceMs = 0, signal?: AbortSignal): Promise<number> {
    const before = new Date(Date.now() - graceMs);
    let total = 0;
    for (let n = -1; n !== 0 && !signal?.aborted; total += n) n = await this.dispatcher.dispatchLeftovers(before);
    if (total > 0) this.logger.log(`Dispatched ${total} event(s) left undispatched`);
    return total;
  }
}
