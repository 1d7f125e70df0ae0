import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each event's and visit's country (ISO 3166-1 alpha-2), looked up from the IP when collected; the IP
 * is still never stored. Null where the address is in no known range (a breakdown's `(unknown)`).
 */
export class AnalyticsCountries1764640200000 implements MigrationInterface {
  name = 'AnalyticsCountries1764640200000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['analytics_events', 'analytics_inbox', 'analytics_visits']) await q.query(`ALTER TABLE ${table} ADD COLUMN country varchar(2)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['analytics_events', 'analytics_inbox', 'analytics_visits']) await q.query(`ALTER TABLE ${table} DROP COLUMN country`);
  }
}
