import { utcDay } from '../analytics/visitor-ids.service.js';

export const REPORT_KINDS = ['weekly', 'monthly'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** A report's period: inclusive UTC days, YYYY-MM-DD (the stats API's `from` and `to`). */
export interface ReportPeriod {
  kind: ReportKind;
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;
const addDays = (day: string, n: number) => utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));

/**
 * The last complete period before `now`: for `weekly` the previous ISO week (Monday to Sunday), for
 * `monthly` the previous calendar month, in UTC. The report of a period is due from the day after it ends.
 */
export function lastCompletePeriod(kind: ReportKind, now: Date): ReportPeriod {
  const today = utcDay(now);
  if (kind === 'weekly') {
    const monday = addDays(today, -((now.getUTCDay() + 6) % 7));
    return { kind, from: addDays(monday, -7), to: addDays(monday, -1) };
  }
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return { kind, from: utcDay(first), to: addDays(`${today.slice(0, 7)}-01`, -1) };
}

/** The period just before `period`, of the same kind (what its changes are measured against). */
export function previousPeriod(period: ReportPeriod): ReportPeriod {
  return lastCompletePeriod(period.kind, new Date(`${period.from}T00:00:00Z`));
}

/** The instant a period ends (the start of the day after its last). */
export const periodEnd = (period: ReportPeriod): Date => new Date(`${addDays(period.to, 1)}T00:00:00Z`);
