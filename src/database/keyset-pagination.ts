import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { PageRequest } from '../common/pagination/page.js';

/**
 * Keyset pagination, newest first, on (created_at, id): stable while rows are inserted, unlike
 * OFFSET. Fetches one row more than the limit to know whether there is a next page.
 *
 * The entity needs the properties `createdAt` and `id`, and its column must be `timestamptz(3)`: the
 * cursor carries a JavaScript Date (milliseconds), and a microsecond column would compare unequal
 * to it and skip rows of the same millisecond. Index (…filters, created_at DESC, id DESC).
 */
export function applyKeyset<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, alias: string, page: PageRequest): SelectQueryBuilder<T> {
  if (page.after) {
    qb.andWhere(`(${alias}.createdAt, ${alias}.id) < (:cursorCreatedAt, :cursorId)`, {
      cursorCreatedAt: page.after.createdAt,
      cursorId: page.after.id,
    });
  }
  return qb
    .orderBy(`${alias}.createdAt`, 'DESC')
    .addOrderBy(`${alias}.id`, 'DESC')
    .limit(page.limit + 1);
}
