/** What one write adds to one rollup row. */
export interface RollupDelta {
  appId: string;
  day: string;
  dimension: string;
  value: string;
  visitors: number;
  pageviews: number;
  visits: number;
  bounces: number;
  visitMs: number;
  signups: number;
}

type Counts = Partial<Pick<RollupDelta, 'visitors' | 'pageviews' | 'visits' | 'bounces' | 'visitMs' | 'signups'>>;

/** Sums the changes a batch makes to the rollups, so each row is upserted once per batch. */
export class RollupDeltas {
  private readonly rows = new Map<string, RollupDelta>();

  add(appId: string, day: string, pairs: ReadonlyArray<readonly [string, string]>, counts: Counts): void {
    for (const [dimension, value] of pairs) {
      const key = `${appId}\u0000${day}\u0000${dimension}\u0000${value}`;
      let row = this.rows.get(key);
      if (!row) {
        row = { appId, day, dimension, value, visitors: 0, pageviews: 0, visits: 0, bounces: 0, visitMs: 0, signups: 0 };
        this.rows.set(key, row);
      }
      row.visitors += counts.visitors ?? 0;
      row.pageviews += counts.pageviews ?? 0;
      row.visits += counts.visits ?? 0;
      row.bounces += counts.bounces ?? 0;
      row.visitMs += counts.visitMs ?? 0;
      row.signups += counts.signups ?? 0;
    }
  }

  list(): RollupDelta[] {
    return [...this.rows.values()];
  }

  /** The same changes with each value replaced by `fold`'s answer (rows that fold together are summed). */
  folded(fold: (appId: string, day: string, dimension: string, value: string) => string): RollupDeltas {
    const result = new RollupDeltas();
    for (const row of this.rows.values()) result.add(row.appId, row.day, [[row.dimension, fold(row.appId, row.day, row.dimension, row.value)]], row);
    return result;
  }
}
