import { SIGNUP } from './analytics-event.js';
import { eventPropsPair, PROPS_PREFIX } from './dimensions.js';
import type { GoalMatcher } from './goals.service.js';
import type { Filter } from './stats-query.js';

/**
 * Rollup rows that answer a goal's conversions (`breakdown?property=goal`) exactly, on a condition:
 * the sums of (`dimension`, `value`) over the range — visitors (daily uniques, each visitor day counted
 * once through its seen marks: what the raw rows' count(DISTINCT (visitor_id, day)) gives) and
 * `completions` — provided that, on every day of the range:
 * - none of the `unfolded` values was folded into `(other)` (a day with an `(other)` row of that dimension
 *   and no row of that value: the value may be inside it);
 * - `propsKey` (a `props.<key>` dimension), if given, was not left without rows on a day its event had any,
 *   with the day's 100 props-key places taken (the key may have been refused its rows that day);
 * - with `onlyPageviews`, the page's rows count no custom event (their visitors would then include visitors
 *   who fired an event on the page without viewing it).
 * When a condition fails, the goal is counted from raw rows (as every goal was before).
 */
export interface RollupRead {
  dimension: string;
  value: string;
  completions: 'events' | 'pageviews';
  unfolded: Array<readonly [string, string]>;
  propsKey: string | null;
  onlyPageviews: boolean;
}

/**
 * Where a goal's conversions are read, the cheapest exact way:
 * - `none`: nothing can match — a page goal or Sign-up with a `props.<key>` filter (pageviews and sign-ups carry no props);
 * - `rollup`: the daily rollups (RollupRead) — an event goal without filters (`event`, value the name), an event goal
 *   with one `props.<key>` filter (`evt+props.<key>`, value the name and the props value), an exact page goal without
 *   filters (`page`);
 * - `signups`: the built-in Sign-up without filters, from the raw sign-up rows alone (a partial index of them:
 *   the cost follows the sign-ups, not all events);
 * - `raw`: the raw rows of the range, with the filters — a wildcard page goal, and any goal with other filters
 *   (another property, or several).
 */
export type GoalSource = { kind: 'none' } | { kind: 'rollup'; read: RollupRead } | { kind: 'signups' } | { kind: 'raw' };

export function goalSource(goal: GoalMatcher, filters: Filter[]): GoalSource {
  if (filters.length > 1) return { kind: 'raw' };
  const filter = filters[0];
  if (filter !== undefined && !filter.property.startsWith(PROPS_PREFIX)) return { kind: 'raw' };
  if (goal.event === SIGNUP) return filter ? { kind: 'none' } : { kind: 'signups' };
  if (goal.event !== null) {
    if (!filter)
      return {
        kind: 'rollup',
        read: { dimension: 'event', value: goal.event, completions: 'events', unfolded: [['event', goal.event]], propsKey: null, onlyPageviews: false },
      };
    const [dimension, value] = eventPropsPair(goal.event, filter.property.slice(PROPS_PREFIX.length), filter.value);
    return {
      kind: 'rollup',
      read: {
        dimension,
        value,
        completions: 'events',
        unfolded: [
          ['event', goal.event],
          [filter.property, filter.value],
        ],
        propsKey: filter.property,
        onlyPageviews: false,
      },
    };
  }
  if (filter) return { kind: 'none' };
  if (goal.page === null || goal.page.includes('*')) return { kind: 'raw' };
  return {
    kind: 'rollup',
    read: { dimension: 'page', value: goal.page, completions: 'pageviews', unfolded: [['page', goal.page]], propsKey: null, onlyPageviews: true },
  };
}
