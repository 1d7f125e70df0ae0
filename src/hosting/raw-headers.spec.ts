import { rawHeaders, sharedHeaders } from './raw-headers.js';

describe('raw headers', () => {
  it('flattens a shared object once, into a copy per answer that the caller may append to', () => {
    const headers = sharedHeaders({ 'content-type': 'text/html; charset=utf-8', etag: '"a"' });
    const first = rawHeaders(headers);
    first.push('x-request-id', 'one');
    const second = rawHeaders(headers);
    expect(first).toEqual(['content-type', 'text/html; charset=utf-8', 'etag', '"a"', 'x-request-id', 'one']);
    expect(second).toEqual(['content-type', 'text/html; charset=utf-8', 'etag', '"a"']);
  });

  it('freezes what it shares: a caller that would change it throws instead of changing every later answer', () => {
    const headers: Record<string, string> = sharedHeaders({ etag: '"a"' });
    expect(() => {
      headers['x-robots-tag'] = 'noindex';
    }).toThrow(TypeError);
    expect(rawHeaders(headers)).toEqual(['etag', '"a"']);
  });

  it('flattens a one-off object as it is now', () => {
    const headers: Record<string, string> = { etag: '"a"' };
    expect(rawHeaders(headers)).toEqual(['etag', '"a"']);
    headers.vary = 'Accept-Encoding';
    expect(rawHeaders(headers)).toEqual(['etag', '"a"', 'vary', 'Accept-Encoding']);
  });
});
