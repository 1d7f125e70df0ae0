import { Injectable } from '@nestjs/common';
import type { Counter, Histogram } from 'prom-client';
import { MetricsService } from '../metrics/metrics.service.js';
import { DeliveryQueue } from './delivery-queue.js';

/** Webhook metrics on /metrics: attempts by outcome, attempt latency, deferrals, attempts set aside, queue depth. */
@Injectable()
export class WebhookMetrics {
  readonly attempts: Counter<'outcome'>;
  readonly latency: Histogram<'outcome'>;
  readonly deferred: Counter;

  constructor(metrics: MetricsService, queue: DeliveryQueue) {
    this.attempts = metrics.counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by outcome: succeeded, retrying, failed (last attempt), disabled (410 Gone)',
      labelNames: ['outcome'] as const,
    });
    this.latency = metrics.histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'Duration of webhook delivery attempts',
      labelNames: ['outcome'] as const,
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    });
    this.deferred = metrics.counter({
      name: 'webhook_deliveries_deferred_total',
      help: 'Delivery jobs sent back to the queue untried because their endpoint had no free slot in this worker',
    });
    metrics.gauge({
      name: 'webhook_queue_depth',
      help: 'Webhook delivery jobs by state',
      labelNames: ['state'] as const,
      async collect() {
        try {
          const counts = await queue.counts();
          for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
        } catch {
          // the queue engine is down: keep the last values (health reports the outage)
        }
      },
    });
  }

  observe(outcome: string, durationMs: number): void {
    this.attempts.inc({ outcome });
    this.latency.observe({ outcome }, durationMs / 1000);
  }
}
