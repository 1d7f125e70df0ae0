import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Goals (issue 47): what an app counts as a conversion — a custom event by name, or a pageview of a
 * path (`*` matching any characters). Counted from the raw events when asked, so a goal counts the
 * retained events from before it was made. A goal's name is unique per app (`Visit /pricing` for a
 * page goal), which is what makes a duplicate a 409.
 */
export class AnalyticsGoals1764640100000 implements MigrationInterface {
  name = 'AnalyticsGoals1764640100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE analytics_goals (
        id          varchar(40)  PRIMARY KEY,
        app_id      varchar(40)  NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        name        varchar(310) NOT NULL,
        event       varchar(40),
        page        varchar(300),
        created_at  timestamptz(3) NOT NULL DEFAULT now(),
        CHECK ((event IS NULL) <> (page IS NULL)),
        UNIQUE (app_id, name)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE analytics_goals`);
  }
}
