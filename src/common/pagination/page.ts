import { isStorableDate } from '../dates.js';
import { RequestError } from '../errors/request-errors.js';

export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;

/** A position in a newest-first list: the (created_at, id) of the last row of the previous page. */
export interface Keyset {
  createdAt: Date;
  id: string;
}

export interface PageRequest {
  limit: number;
  /** Decoded `cursor`, absent on the first page. */
  after?: Keyset;
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/** The opaque cursor clients see: base64url of `[createdAt ISO, id]`. */
export function encodeCursor(position: Keyset): string {
  return Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): Keyset {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') {
      const createdAt = new Date(value[0]);
      if (isStorableDate(createdAt) && value[1].length > 0 && value[1].length <= 64 && !value[1].includes('\u0000')) return { createdAt, id: value[1] };
    }
  } catch {
    // fall through: any undecodable cursor is the client's mistake
  }
  throw RequestError.invalidCursor();
}

export function toPageRequest(query: { limit?: number; cursor?: string }): PageRequest {
  return { limit: query.limit ?? DEFAULT_PAGE_LIMIT, after: query.cursor ? decodeCursor(query.cursor) : undefined };
}

/** Cuts the extra row fetched by the repository (see database/keyset-pagination.ts) and turns the rest into a page of DTOs. */
export function toPage<E extends Keyset, D>(rows: E[], page: PageRequest, toDto: (row: E) => D): Page<D> {
  const hasMore = rows.length > page.limit;
  const items = hasMore ? rows.slice(0, page.limit) : rows;
  const last = items[items.length - 1];
  return { data: items.map(toDto), nextCursor: hasMore && last ? encodeCursor(last) : null };
}
