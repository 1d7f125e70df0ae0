/** YYYY-MM-DD of a real calendar day in years 0001–9999 (what PostgreSQL's date type and ISO 8601 agree on). */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value.startsWith('0000')) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  // 2026-02-31 parses to March 3rd: a real date reads back the same.
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

/** A Date PostgreSQL can store and compare: years 1–9999. */
export function isStorableDate(value: Date): boolean {
  const year = value.getUTCFullYear();
  return !Number.isNaN(value.getTime()) && year >= 1 && year <= 9999;
}
