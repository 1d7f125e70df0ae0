import { RequestError } from '../errors/request-errors.js';
import { decodeCursor, encodeCursor, toPage, toPageRequest } from './page.js';

describe('keyset pagination', () => {
  const row = (id: string, ms: number) => ({ id, createdAt: new Date(ms) });

  it('round-trips a cursor, opaque and URL-safe', () => {
    const cursor = encodeCursor(row('app_1', Date.UTC(2025, 10, 22, 4, 20, 0, 123)));
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(row('app_1', Date.UTC(2025, 10, 22, 4, 20, 0, 123)));
  });

  it.each([
    '',
    'not-base64!',
    Buffer.from('["x"]').toString('base64url'),
    Buffer.from('["nope","app_1"]').toString('base64url'),
    Buffer.from('{}').toString('base64url'),
  ])('refuses a cursor it did not make: %p', (cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(RequestError);
    expect(() => decodeCursor(cursor)).toThrow(/cursor is invalid/);
  });

  it('defaults the limit to 20 and decodes the cursor', () => {
    expect(toPageRequest({})).toEqual({ limit: 20, after: undefined });
    const cursor = encodeCursor(row('app_9', 1000));
    expect(toPageRequest({ limit: 5, cursor })).toEqual({ limit: 5, after: row('app_9', 1000) });
  });

  it('cuts the look-ahead row and points the next cursor at the last row shown', () => {
    const rows = [row('c', 3), row('b', 2), row('a', 1)];
    const page = toPage(rows, { limit: 2 }, (r) => r.id);
    expect(page.data).toEqual(['c', 'b']);
    expect(decodeCursor(page.nextCursor!)).toEqual(row('b', 2));
    expect(toPage(rows.slice(0, 2), { limit: 2 }, (r) => r.id)).toEqual({ data: ['c', 'b'], nextCursor: null });
    expect(toPage([], { limit: 2 }, (r: { id: string; createdAt: Date }) => r.id)).toEqual({ data: [], nextCursor: null });
  });
});
