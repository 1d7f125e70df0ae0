/** How long ago, as people say it ("just now", "5 minutes ago", "3 days ago"), past a month the UTC date. */
export function ago(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  const say = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  if (seconds < 45) return 'just now';
  if (seconds < 45 * 60) return say(Math.max(1, Math.round(seconds / 60)), 'minute');
  if (seconds < 22 * 3600) return say(Math.round(seconds / 3600), 'hour');
  if (seconds < 30 * 86_400) return say(Math.max(1, Math.round(seconds / 86_400)), 'day');
  return `on ${iso.slice(0, 10)}`;
}

/** A byte count as people read it: "812 B", "4.2 kB", "1.3 MB" (powers of 1,000, one decimal under 10). */
export function size(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** "1,234": an integer with thousands separators. */
export function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
