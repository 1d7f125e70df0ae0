import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { RequestMetrics } from './request-metrics.js';

/** The latency buckets of `http_request_duration_seconds`. */
export const REQUEST_SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The Prometheus registry of this app instance (not prom-client's global one, so several
 * instances can live in one process, as in the tests). Feature modules add their metrics here.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  /** `http_requests_total` and `http_request_duration_seconds`: every request, so counted without prom-client's per-call label work. */
  private readonly requests = new RequestMetrics(this.registry, REQUEST_SECONDS_BUCKETS);

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe(method, route, status, seconds);
  }
}
