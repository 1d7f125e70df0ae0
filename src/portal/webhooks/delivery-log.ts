import { STATUS_CODES } from 'node:http';
import type { WebhookDeliveryDto } from '../../webhooks/dto/delivery.dto.js';

/** One attempt as the delivery log shows it. */
export interface AttemptRow {
  attempt: number;
  at: string;
  atIso: string;
  /** `500 Internal Server Error`, or `No answer`. */
  status: string;
  ok: boolean;
  duration: string;
  /** When the next try was due after this one (`—`: none). */
  nextRetry: string;
  error: string | null;
  response: string | null;
  /** Unfolded: the answer of the last attempt, when it failed. */
  open: boolean;
}

/** One delivery as the delivery log shows it. */
export interface DeliveryRow {
  id: string;
  event: string;
  status: WebhookDeliveryDto['status'];
  statusLabel: string;
  created: string;
  createdIso: string;
  /** Pending: when its next try is due, and how far off that is. */
  nextRetry: string | null;
  /** The event's payload as sent, indented (escaped by the view). */
  payload: string | null;
  attempts: AttemptRow[];
}

const STATUS_LABELS = { pending: 'Pending', succeeded: 'Succeeded', failed: 'Failed' } as const;

/** `Nov 25, 2026, 13:02:11 UTC`. */
export function utcTime(iso: string): string {
  const at = new Date(iso);
  return `${at.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })}, ${iso.slice(11, 19)} UTC`;
}

/** A time of the delivery's own UTC day as `13:02:11`, of another day as `Nov 26, 13:02:11`. */
function sameDayTime(iso: string, day: string): string {
  if (iso.slice(0, 10) === day) return iso.slice(11, 19);
  return `${new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })}, ${iso.slice(11, 19)}`;
}

/** `in 59 min`, `in 3 h`, `in 2 days`, `now`. */
export function fromNow(iso: string, now = Date.now()): string {
  const minutes = Math.round((Date.parse(iso) - now) / 60_000);
  if (minutes <= 0) return 'due now';
  if (minutes < 90) return `in ${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `in ${hours} h` : `in ${Math.round(hours / 24)} days`;
}

/** `12 ms`, `1.3 s`. */
export function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} s`;
}

/** What the delivery log shows of a delivery (times in UTC). */
export function deliveryRow(d: WebhookDeliveryDto, now = Date.now()): DeliveryRow {
  const day = d.createdAt.slice(0, 10);
  return {
    id: d.id,
    event: d.event || 'event no longer in the log',
    status: d.status,
    statusLabel: STATUS_LABELS[d.status],
    created: utcTime(d.createdAt),
    createdIso: d.createdAt,
    nextRetry: d.nextAttemptAt ? `${utcTime(d.nextAttemptAt)} (${fromNow(d.nextAttemptAt, now)})` : null,
    payload: d.payload ? JSON.stringify(d.payload, null, 2) : null,
    attempts: d.attempts.map((a, i) => {
      const ok = a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300;
      return {
        attempt: a.attempt,
        at: sameDayTime(a.attemptedAt, day),
        atIso: a.attemptedAt,
        status: a.statusCode === null ? 'No answer' : `${a.statusCode} ${STATUS_CODES[a.statusCode] ?? ''}`.trim(),
        ok,
        duration: duration(a.durationMs),
        nextRetry: a.nextAttemptAt ? sameDayTime(a.nextAttemptAt, day) : '—',
        error: a.error,
        response: a.responseBody,
        open: !ok && i === d.attempts.length - 1,
      };
    }),
  };
}
