import { Counter, Histogram, Registry } from 'prom-client';
import { REQUEST_SECONDS_BUCKETS } from './metrics.service.js';
import { RequestMetrics } from './request-metrics.js';

describe('RequestMetrics', () => {
  const observations: Array<[string, string, number, number]> = [
    ['GET', '/__site', 200, 0.0004],
    ['GET', '/__site', 200, 0.001], // on a bound: in its bucket
    ['GET', '/__site', 304, 0.003],
    ['POST', '/v1/apps/deploy', 201, 0.2],
    ['GET', '/__site', 200, 0.07],
    ['GET', '/v1/apps', 500, 12], // above every bound: +Inf only
    ['GET', '/a "quoted"\\route', 404, 0.01],
  ];

  it('shows exactly what prom-client’s Counter and Histogram show for the same requests', async () => {
    const theirs = new Registry();
    const labelNames = ['method', 'route', 'status'] as const;
    const counter = new Counter({ name: 'http_requests_total', help: 'HTTP requests by method, route and status', labelNames, registers: [theirs] });
    const histogram = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by method, route and status',
      labelNames,
      buckets: REQUEST_SECONDS_BUCKETS,
      registers: [theirs],
    });
    const ours = new Registry();
    const metrics = new RequestMetrics(ours, REQUEST_SECONDS_BUCKETS);
    for (const [method, route, status, seconds] of observations) {
      const labels = { method, route, status: String(status) };
      counter.inc(labels);
      histogram.observe(labels, seconds);
      metrics.observe(method, route, status, seconds);
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('http_requests_total{method="GET",route="/__site",status="200"} 3');
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.001",method="GET",route="/__site",status="200"} 2');
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
  });

  it('starts again from nothing when the registry is reset', async () => {
    const registry = new Registry();
    const metrics = new RequestMetrics(registry, REQUEST_SECONDS_BUCKETS);
    metrics.observe('GET', '/x', 200, 0.01);
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('route="/x"');
  });
});
