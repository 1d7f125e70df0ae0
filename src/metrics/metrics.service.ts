import { Injectable } from '@nestjs/common';
import {
  collectDefaultMetrics,
  Counter,
  type CounterConfiguration,
  Gauge,
  type GaugeConfiguration,
  Histogram,
  type HistogramConfiguration,
  Registry,
} from 'prom-client';

/** A metric's configuration without its registry: MetricsService adds its own. */
type Unregistered<C> = Omit<C, 'registers'>;

/** Answers a series holds before it hands them to prom-client (and always when the registry is read). */
const PENDING_ANSWERS = 256;

/**
 * Increments of one counter series, added up here and handed to prom-client in one `inc` every
 * PENDING_ANSWERS, and whenever the metric's `collect` hook calls `flush` (before the registry is read).
 */
export class PendingCount {
  private pending = 0;

  constructor(private readonly counter: { inc(value: number): void }) {}

  inc(): void {
    if (++this.pending === PENDING_ANSWERS) this.flush();
  }

  flush(): void {
    if (this.pending === 0) return;
    this.counter.inc(this.pending);
    this.pending = 0;
  }
}

/** One (method, route, status) of the request metrics: what it answered since it last handed them on. */
class RequestSeries {
  private readonly seconds = new Float64Array(PENDING_ANSWERS);
  private pending = 0;
  private readonly count: PendingCount;

  constructor(
    count: { inc(value: number): void },
    private readonly latency: { observe(value: number): void },
  ) {
    this.count = new PendingCount(count);
  }

  /** One request answered in `seconds`. */
  observe(seconds: number): void {
    this.count.inc();
    this.seconds[this.pending++] = seconds;
    if (this.pending === PENDING_ANSWERS) this.flush();
  }

  /** Into prom-client: one increment for all, then each latency (in a loop, where one call per request cost a beacon about 2 µs). */
  flush(): void {
    this.count.flush();
    for (let i = 0; i < this.pending; i++) this.latency.observe(this.seconds[i]);
    this.pending = 0;
  }
}

/**
 * The Prometheus registry of this app instance (not prom-client's global one, so several
 * instances can live in one process, as in the tests). Feature modules add their metrics here.
 * The request metrics reach prom-client in small batches (RequestSeries), always in full before the
 * registry is read: a scrape sees every request answered before it.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  /** The series of each (method, route, status) seen, so a request costs no label hashing. Bounded by the route table. */
  private readonly series = new Map<string, RequestSeries>();

  private readonly requests = this.counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    collect: () => this.flushRequests(),
  });

  private readonly latency = this.histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    collect: () => this.flushRequests(),
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** A counter on this instance's registry. */
  counter<L extends string = string>(config: Unregistered<CounterConfiguration<L>>): Counter<L> {
    return new Counter({ ...config, registers: [this.registry] });
  }

  /** A histogram on this instance's registry. */
  histogram<L extends string = string>(config: Unregistered<HistogramConfiguration<L>>): Histogram<L> {
    return new Histogram({ ...config, registers: [this.registry] });
  }

  /** A gauge on this instance's registry (a `collect` hook sets it when the registry is read). */
  gauge<L extends string = string>(config: Unregistered<GaugeConfiguration<L>>): Gauge<L> {
    return new Gauge({ ...config, registers: [this.registry] });
  }

  /** One request answered; its (method, route, status) series is made at its first request and kept. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.series.get(key);
    if (!series) {
      const labels = { method, route, status: String(status) };
      series = new RequestSeries(this.requests.labels(labels), this.latency.labels(labels));
      this.series.set(key, series);
    }
    series.observe(seconds);
  }

  private flushRequests(): void {
    for (const series of this.series.values()) series.flush();
  }
}
