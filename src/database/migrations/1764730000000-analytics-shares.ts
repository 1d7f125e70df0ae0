import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Shared dashboards (issue 47): read-only links to an app's analytics. The link's token is derived from
 * the share's id and the server's secret (docs/decisions/2026-11-29-analytics-share-tokens.md), so only its
 * SHA-256 is stored, for the lookup; a password, if any, as the portal hashes passwords. Deleting the row
 * revokes the link (every request looks it up).
 */
export class AnalyticsShares1764730000000 implements MigrationInterface {
  name = 'AnalyticsShares1764730000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE analytics_shares (
        id             varchar(40)  PRIMARY KEY,
        app_id         varchar(40)  NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        name           varchar(100) NOT NULL,
        token_hash     char(64)     NOT NULL UNIQUE,
        password_hash  varchar(200),
        created_at     timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX analytics_shares_app ON analytics_shares (app_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE analytics_shares`);
  }
}
