/** Durations in settings: a whole number with a unit, `ms`, `s`, `m`, `h` or `d`; a bare number is milliseconds. */

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export const DURATION_PATTERN = '\\d+(?:ms|s|m|h|d)?';

/** `5m` → 300000; undefined when it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const match = new RegExp(`^(\\d+)(ms|s|m|h|d)?$`).exec(text.trim());
  return match ? Number(match[1]) * UNITS[match[2] ?? 'ms'] : undefined;
}

/** `5m,1h,24h` → [300000, 3600000, 86400000]; undefined when a part is not a duration. */
export function parseDurations(text: string): number[] | undefined {
  const parts = text.split(',').map(parseDuration);
  return parts.every((p) => p !== undefined) ? (parts as number[]) : undefined;
}

/** For people: 300000 → `5 min`, 86400000 → `24 h`, 432000000 → `5 days`, 2000 → `2 s`, 300 → `300 ms`. */
export function formatDuration(ms: number): string {
  if (ms >= 2 * UNITS.d && ms % UNITS.d === 0) return `${ms / UNITS.d} days`;
  if (ms >= UNITS.h && ms % UNITS.h === 0) return `${ms / UNITS.h} h`;
  if (ms >= UNITS.m && ms % UNITS.m === 0) return `${ms / UNITS.m} min`;
  if (ms >= UNITS.s && ms % 100 === 0) return `${ms / UNITS.s} s`;
  return `${ms} ms`;
}
