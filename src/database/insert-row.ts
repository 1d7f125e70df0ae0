import type { DeepPartial, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * Inserts one new row and returns it with its column defaults (created_at, …) filled in by
 * `INSERT … RETURNING`. Use it instead of save() for rows that are new by construction: save()
 * first SELECTs by primary key to choose between INSERT and UPDATE, a round trip for nothing.
 */
export async function insertRow<T extends ObjectLiteral>(m: EntityManager, entity: EntityTarget<T>, values: NoInfer<DeepPartial<T>>): Promise<T> {
  const repository = m.getRepository(entity);
  const row = repository.create(values);
  await repository.insert(row);
  return row;
}
