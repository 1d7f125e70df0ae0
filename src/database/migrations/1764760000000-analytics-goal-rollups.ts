import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Goal conversions from the daily rollups (issue 47's speed target):
 * - analytics_daily gains the internal dimension `evt+props.<key>` (value: the event name, U+001E, the props
 *   value; see src/analytics/dimensions.ts), backfilled here from the retained raw events: per app, day, key,
 *   name and value, the visitors (distinct per day) and the events, each part folded as its own dimension was
 *   that day (a name without an `event` row on a day with an `(other)` one counts under `(other)`, a props value
 *   likewise, a key without any `props.<key>` row that day — refused its rows — gets none), as the writer does.
 *   For today and yesterday, the days that still take events, each visitor day's `seen` gains the marks, so a
 *   visitor already counted is not counted again by the writer.
 * - a partial index of the sign-ups (`name = 'signup'`) on analytics_events: the built-in Sign-up goal reads
 *   them alone, its cost following the sign-ups rather than all of an app's events. Only sign-ups are added to
 *   it on insert (a pageview or custom event costs its predicate check).
 */
export class AnalyticsGoalRollups1764760000000 implements MigrationInterface {
  name = 'AnalyticsGoalRollups1764760000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX IF NOT EXISTS analytics_events_signups_idx ON analytics_events (app_id, occurred_at) WHERE name = 'signup'`);
    await q.query(`DELETE FROM analytics_daily WHERE left(dimension, 10) = 'evt+props.'`);
    // Each retained custom event's props, one row per pair, folded as the rollups of its day were.
    await q.query(`
      CREATE TEMP TABLE goal_rollup_pairs AS
      WITH pairs AS MATERIALIZED (
        SELECT e.app_id, (e.occurred_at AT TIME ZONE 'UTC')::date AS day, e.visitor_id, e.name, p.key, p.value
          FROM analytics_events e CROSS JOIN LATERAL jsonb_each_text(e.props) AS p(key, value)
         WHERE e.props IS NOT NULL AND e.name NOT IN ('pageview', 'signup') AND p.key <> ''
      ), folded AS (
        SELECT g.app_id, g.day, g.name, g.key, g.value,
               CASE WHEN NOT EXISTS (SELECT 1 FROM analytics_daily x WHERE x.app_id = g.app_id AND x.dimension = 'event' AND x.day = g.day AND x.value = g.name)
                     AND EXISTS (SELECT 1 FROM analytics_daily o WHERE o.app_id = g.app_id AND o.dimension = 'event' AND o.day = g.day AND o.value = '(other)')
                    THEN '(other)' ELSE g.name END AS folded_name,
               CASE WHEN NOT EXISTS (SELECT 1 FROM analytics_daily x WHERE x.app_id = g.app_id AND x.dimension = 'props.' || g.key AND x.day = g.day AND x.value = g.value)
                     AND EXISTS (SELECT 1 FROM analytics_daily o WHERE o.app_id = g.app_id AND o.dimension = 'props.' || g.key AND o.day = g.day AND o.value = '(other)')
                    THEN '(other)' ELSE g.value END AS folded_value
          FROM (SELECT DISTINCT app_id, day, name, key, value FROM pairs) AS g
         WHERE EXISTS (SELECT 1 FROM analytics_daily k WHERE k.app_id = g.app_id AND k.dimension = 'props.' || g.key AND k.day = g.day)
      )
      SELECT p.app_id, p.day, p.visitor_id, 'evt+props.' || p.key AS dimension, f.folded_name || chr(30) || f.folded_value AS value
        FROM pairs p JOIN folded f USING (app_id, day, name, key, value)`);
    await q.query(`
      INSERT INTO analytics_daily (app_id, day, dimension, value, visitors, events)
      SELECT app_id, day, dimension, value, count(DISTINCT visitor_id), count(*) FROM goal_rollup_pairs GROUP BY app_id, day, dimension, value`);
    await q.query(`
      UPDATE analytics_visitor_days d
         SET seen = ARRAY(SELECT s FROM unnest(d.seen) AS s WHERE left(s, 10) <> 'evt+props.') || m.marks
        FROM (SELECT app_id, day, visitor_id, array_agg(DISTINCT dimension || ':' || value) AS marks
                FROM goal_rollup_pairs WHERE day >= (now() AT TIME ZONE 'UTC')::date - 1 GROUP BY app_id, day, visitor_id) AS m
       WHERE d.app_id = m.app_id AND d.day = m.day AND d.visitor_id = m.visitor_id`);
    await q.query(`DROP TABLE goal_rollup_pairs`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE analytics_visitor_days SET seen = ARRAY(SELECT s FROM unnest(seen) AS s WHERE left(s, 10) <> 'evt+props.')`);
    await q.query(`DELETE FROM analytics_daily WHERE left(dimension, 10) = 'evt+props.'`);
    await q.query(`DROP INDEX analytics_events_signups_idx`);
  }
}
