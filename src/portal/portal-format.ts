import { isGauge } from '../billing/plans.js';

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

/** A byte count as people read it: "812 B", "4.1 KiB", "1.2 MiB", "10 GiB" (powers of 1,024, one decimal under 10). */
export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = value < 10 ? value.toFixed(1).replace(/\.0$/, '') : String(Math.round(value));
  return `${shown} ${units[unit]}`;
}

/** "1,234": an integer with thousands separators. */
export function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** Each billing meter as people name it, and how its amounts read. */
const units = (one: string, many: string) => (n: number) => `${count(n)} ${n === 1 ? one : many}`;
const METERS: Record<string, { label: string; amount: (n: number) => string }> = {
  'api.requests': { label: 'API requests', amount: units('request', 'requests') },
  'ai.tokens': { label: 'AI tokens', amount: units('token', 'tokens') },
  deployments: { label: 'Deployments', amount: units('deployment', 'deployments') },
  'analytics.events': { label: 'Analytics events', amount: units('event', 'events') },
  'webhook.deliveries': { label: 'Webhook deliveries', amount: units('delivery', 'deliveries') },
  'bandwidth.bytes': { label: 'Bandwidth', amount: (n) => size(n) },
  'storage.bytes': { label: 'Storage', amount: (n) => size(n) },
  'functions.requests': { label: 'Function requests', amount: units('request', 'requests') },
  'functions.duration_ms': { label: 'Function time', amount: (n) => `${count(n / 1000)} s` },
};

export interface MeterRow {
  meter: string;
  label: string;
  used: string;
  included: string;
  percent: number | null;
  hard: boolean;
  /** A level (what is kept now), not this month's sum. */
  now: boolean;
}

/** A meter's usage for a page: its human name, amounts with units, the share used. */
export function meterRow(u: { meter: string; used: number; included: number | null; percent: number | null; hard: boolean }): MeterRow {
  const known = METERS[u.meter] ?? { label: u.meter, amount: count };
  return {
    meter: u.meter,
    label: known.label,
    used: known.amount(u.used),
    included: u.included === null ? 'unlimited' : known.amount(u.included),
    percent: u.percent,
    hard: u.hard,
    now: isGauge(u.meter),
  };
}
