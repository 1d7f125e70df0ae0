import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The random daily salts that visitor ids are hashed with. A salt is made for a UTC day when it is
 * first needed and deleted 48 h after that day began, so an old visitor id cannot be recomputed —
 * not even by someone with the database. Salts live here (not in memory) so every instance hashes alike.
 */
export class CreateVisitorSalts1763840000000 implements MigrationInterface {
  name = 'CreateVisitorSalts1763840000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE visitor_salts (
        day         date           PRIMARY KEY,
        salt        bytea          NOT NULL,
        created_at  timestamptz(3) NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE visitor_salts`);
  }
}
