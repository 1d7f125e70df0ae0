import { ApiProperty } from '@nestjs/swagger';
import { isISO8601, ValidateBy, ValidationArguments } from 'class-validator';
import { PageOf } from '../../common/pagination/page-of.js';
import { EventDto } from '../../events/dto/event.dto.js';
import type { DeliveryStatus, WebhookAttempt, WebhookDelivery } from '../webhook.entities.js';

/** How far back a recover reaches. */
export const RECOVER_WINDOW_MS = 14 * 24 * 3600 * 1000;

export class WebhookAttemptDto {
  /** 1 for the first try. @example 1 */
  attempt: number;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-11-22T04:20:01.000Z' })
  attemptedAt: string;

  /** The receiver's HTTP status; null when no answer came (timeout, refused, blocked). @example 503 */
  statusCode: number | null;

  /** @example 42 */
  durationMs: number;

  /**
   * The first 1 KiB of the answer (cut before a character the limit would split; NUL characters dropped).
   * @example "Service Unavailable"
   */
  responseBody: string | null;

  /** Why the try failed without an answer: `timeout`, `blocked address`, a DNS or connection error. @example null */
  error: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2025-11-22T04:25:01.000Z',
    description: 'When the next try was due, as scheduled after this one (the retry schedule, or a longer `Retry-After`); null when none was',
  })
  nextAttemptAt: string | null;
}

export class WebhookDeliveryDto {
  /** @example del_01JC3ZF0A2B4C6D8E0F2G4H6J8 */
  id: string;

  /** @example evt_01JC3ZE8S0T2V4W6X8Y0Z2A4B6 */
  eventId: string;

  /** @example user.created */
  event: string;

  /** @example we_01JC3ZD2F4G6H8J0K2M4N6P8QR */
  endpointId: string;

  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'], example: 'pending' })
  status: DeliveryStatus;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-11-22T04:20:00.000Z' })
  createdAt: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2025-11-22T05:20:01.000Z',
    description: 'Pending: when its next try is due. Null once it has settled',
  })
  nextAttemptAt: string | null;

  @ApiProperty({ type: EventDto, nullable: true, description: 'The body each try sends; null once the event has left the 30-day log' })
  payload: EventDto | null;

  @ApiProperty({ type: [WebhookAttemptDto], description: 'Oldest first' })
  attempts: WebhookAttemptDto[];
}

export class WebhookDeliveryPageDto extends PageOf(WebhookDeliveryDto) {}

/** `since`: an ISO 8601 time within the last 14 days, not in the future. */
function IsRecoverySince(): PropertyDecorator {
  const problem = (value: unknown): string | undefined => {
    if (typeof value !== 'string' || !isISO8601(value, { strict: true, strictSeparator: true }) || Number.isNaN(Date.parse(value))) {
      return 'since must be an ISO 8601 time, like 2026-11-20T08:00:00Z';
    }
    const at = Date.parse(value);
    if (at > Date.now()) return 'since must not be in the future';
    if (at < Date.now() - RECOVER_WINDOW_MS) return 'since must be within the last 14 days';
    return undefined;
  };
  return ValidateBy({
    name: 'isRecoverySince',
    validator: { validate: (value: unknown) => problem(value) === undefined, defaultMessage: (args?: ValidationArguments) => problem(args?.value) ?? '' },
  });
}

export class RecoverDeliveriesDto {
  /**
   * Failed deliveries of the events raised at or after this time are attempted again. Within the last 14 days, not in the future.
   * @example "2026-11-20T08:00:00.000Z"
   */
  @IsRecoverySince()
  since: string;
}

export class RecoveredDto {
  /** How many failed deliveries were queued again (oldest first). @example 12 */
  queued: number;
}

export function toAttemptDto(a: WebhookAttempt): WebhookAttemptDto {
  return {
    attempt: a.attempt,
    attemptedAt: a.attemptedAt.toISOString(),
    statusCode: a.statusCode,
    durationMs: a.durationMs,
    responseBody: a.responseBody,
    error: a.error,
    nextAttemptAt: a.nextAttemptAt?.toISOString() ?? null,
  };
}

export function toDeliveryDto(d: WebhookDelivery, payload: EventDto | undefined, attempts: WebhookAttempt[]): WebhookDeliveryDto {
  return {
    id: d.id,
    eventId: d.eventId,
    event: payload?.event ?? '',
    endpointId: d.endpointId,
    status: d.status,
    createdAt: d.createdAt.toISOString(),
    nextAttemptAt: d.status === 'pending' ? (d.nextAttemptAt?.toISOString() ?? null) : null,
    payload: payload ?? null,
    attempts: attempts.map(toAttemptDto),
  };
}
