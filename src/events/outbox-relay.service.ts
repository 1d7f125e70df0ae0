import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
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
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxRelay');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly config: AppConfig,
    private readonly dispatcher: EventDispatcher,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.runsWorkers) return;
    this.tick(0);
    this.timer = setInterval(() => this.tick(RELAY_GRACE_MS), RELAY_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass: everything raised more than `graceMs` ago and still undispatched. */
  async relay(graceMs = 0): Promise<number> {
    const before = new Date(Date.now() - graceMs);
    let total = 0;
    for (let n = -1; n !== 0; total += n) n = await this.dispatcher.dispatchLeftovers(before);
    if (total > 0) this.logger.log(`Dispatched ${total} event(s) left undispatched`);
    return total;
  }

  private tick(graceMs: number): void {
    if (this.running) return;
    this.running = this.relay(graceMs)
      .then(() => undefined)
      .catch((err) => this.logger.error({ err }, 'Outbox relay pass failed'))
      .finally(() => (this.running = undefined));
  }
}
