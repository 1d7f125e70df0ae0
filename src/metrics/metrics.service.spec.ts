import { MetricsService } from './metrics.service.js';

describe('MetricsService request metrics', () => {
  const series = (text: string, name: string) =>
    Number(new RegExp(`^${name}\\{method="POST",route="/collect",status="202"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  const bucket = (text: string, le: string) =>
    Number(
      new RegExp(`^http_request_duration_seconds_bucket\\{le="${le.replace('+', '\\+')}",method="POST",route="/collect",status="202"\\} (\\S+)$`, 'm').exec(
        text,
      )?.[1] ?? NaN,
    );

  it('shows every request answered before a scrape, however few, in the counter and the histogram', async () => {
    const metrics = new MetricsService();
    for (const seconds of [0.0004, 0.02, 0.3]) metrics.observeRequest('POST', '/collect', 202, seconds);
    const text = await metrics.registry.metrics();
    expect(series(text, 'http_requests_total')).toBe(3);
    expect(series(text, 'http_request_duration_seconds_count')).toBe(3);
    expect(series(text, 'http_request_duration_seconds_sum')).toBeCloseTo(0.3204, 6);
    expect([bucket(text, '0.001'), bucket(text, '0.025'), bucket(text, '0.5'), bucket(text, '+Inf')]).toEqual([1, 2, 3, 3]);
  });

  it('hands batches on as they fill, and counts on across scrapes', async () => {
    const metrics = new MetricsService();
    const accepted = { observe: (seconds: number) => metrics.observeRequest('POST', '/collect', 202, seconds) };
    for (let i = 0; i < 1000; i++) accepted.observe(0.001);
    expect(series(await metrics.registry.metrics(), 'http_requests_total')).toBe(1000);
    for (let i = 0; i < 5; i++) accepted.observe(0.001);
    const text = await metrics.registry.metrics();
    expect(series(text, 'http_requests_total')).toBe(1005);
    expect(series(text, 'http_request_duration_seconds_count')).toBe(1005);
  });
});
