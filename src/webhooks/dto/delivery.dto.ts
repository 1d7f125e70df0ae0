import { ApiProperty } from '@nestjs/swagger';
import { PageOf } from '../../common/pagination/page-of.js';
import type { DeliveryStatus, WebhookAttempt, WebhookDelivery } from '../webhook.entities.js';

export class WebhookAttemptDto {
  /** 1 for the first try. @example 1 */
  attempt: number;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-11-22T04:20:01.000Z' })
  attemptedAt: string;

  /** The receiver's HTTP status; null when no answer came (timeout, refused, blocked). @example 500 */
  statusCode: number | null;

  /** @example 42 */
  durationMs: number;

  /** The first 1 KiB of the answer. @example "Internal Server Error" */
  responseBody: string | null;

  /** Why the try failed without an answer: `timeout`, `blocked address`, a DNS or connection error. @example null */
  error: string | null;
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

  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'], example: 'succeeded' })
  status: DeliveryStatus;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-11-22T04:20:00.000Z' })
  createdAt: string;

  @ApiProperty({ type: [WebhookAttemptDto], description: 'Oldest first' })
  attempts: WebhookAttemptDto[];
}

export class WebhookDeliveryPageDto extends PageOf(WebhookDeliveryDto) {}

export function toAttemptDto(a: WebhookAttempt): WebhookAttemptDto {
  return {
    attempt: a.attempt,
    attemptedAt: a.attemptedAt.toISOString(),
    statusCode: a.statusCode,
    durationMs: a.durationMs,
    responseBody: a.responseBody,
    error: a.error,
  };
}

export function toDeliveryDto(d: WebhookDelivery, kind: string, attempts: WebhookAttempt[]): WebhookDeliveryDto {
  return {
    id: d.id,
    eventId: d.eventId,
    event: kind,
    endpointId: d.endpointId,
    status: d.status,
    createdAt: d.createdAt.toISOString(),
    attempts: attempts.map(toAttemptDto),
  };
}
