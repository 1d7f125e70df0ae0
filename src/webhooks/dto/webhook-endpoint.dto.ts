import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { PageOf } from '../../common/pagination/page-of.js';
import { EVENT_FILTERS } from '../event-kinds.js';
import type { WebhookEndpoint, WebhookEndpointStatus } from '../webhook.entities.js';

const EVENTS_MESSAGE = `each value in events must be one of: ${EVENT_FILTERS.join(', ')}`;

export class CreateWebhookEndpointDto {
  /**
   * The receiver: `https://`, reachable on a public address (checked now and at every delivery).
   * @example "https://example.com/webhooks"
   */
  @IsString()
  @MaxLength(2048, { message: 'url must be at most 2048 characters long' })
  url: string;

  /** Event kinds to receive: `*`, a whole domain (`user.*`) or exact kinds. Default `["*"]`. */
  @ApiProperty({ required: false, type: [String], example: ['user.*', 'app.created'], default: ['*'] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1, { message: 'events must list at least one kind' })
  @ArrayMaxSize(50)
  @IsIn(EVENT_FILTERS, { each: true, message: EVENTS_MESSAGE })
  events?: string[];

  /** @example "Production user sync" */
  @IsOptional()
  @IsString()
  @MaxLength(1000, { message: 'description must be at most 1000 characters long' })
  description?: string | null;
}

/** Only the fields sent change. `status: Disabled` stops deliveries; `Active` resumes them (and clears `disabledReason`). */
export class UpdateWebhookEndpointDto {
  /** @example "https://example.com/webhooks/v2" */
  @ValidateIf((o: UpdateWebhookEndpointDto) => o.url !== undefined)
  @IsString()
  @MaxLength(2048, { message: 'url must be at most 2048 characters long' })
  url?: string;

  @ApiProperty({ required: false, type: [String], example: ['*'] })
  @ValidateIf((o: UpdateWebhookEndpointDto) => o.events !== undefined)
  @IsArray()
  @ArrayMinSize(1, { message: 'events must list at least one kind' })
  @ArrayMaxSize(50)
  @IsIn(EVENT_FILTERS, { each: true, message: EVENTS_MESSAGE })
  events?: string[];

  /** @example "Staging" */
  @IsOptional()
  @IsString()
  @MaxLength(1000, { message: 'description must be at most 1000 characters long' })
  description?: string | null;

  @ApiProperty({ required: false, enum: ['Active', 'Disabled'], example: 'Disabled' })
  @ValidateIf((o: UpdateWebhookEndpointDto) => o.status !== undefined)
  @IsIn(['Active', 'Disabled'], { message: 'status must be Active or Disabled' })
  status?: WebhookEndpointStatus;
}

export class WebhookEndpointDto {
  /** @example we_01JC3ZD2F4G6H8J0K2M4N6P8QR */
  id: string;

  /** @example "https://example.com/webhooks" */
  url: string;

  @ApiProperty({ type: [String], example: ['user.*'] })
  events: string[];

  /** @example "Production user sync" */
  description: string | null;

  @ApiProperty({
    enum: ['Active', 'Disabled'],
    example: 'Active',
    description: 'The service disables an endpoint that answers 410 Gone, or whose deliveries have kept failing for 5 days (WEBHOOK_DISABLE_AFTER)',
  })
  status: WebhookEndpointStatus;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description:
      'Why the service disabled it, e.g. `no delivery succeeded for 5 days while deliveries kept failing` or `the receiver answered 410 Gone`; null when Active or disabled by hand',
  })
  disabledReason: string | null;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-11-22T04:20:00.000Z' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-11-22T04:20:00.000Z' })
  updatedAt: string;
}

export class CreatedWebhookEndpointDto extends WebhookEndpointDto {
  /**
   * The signing secret. Shown only here (and by rotate-secret): store it.
   * @example whsec_3q2+7w1XkQm9Zr0aB5cD8eF1gH4iJ7kL0mN3oP6qR9s=
   */
  secret: string;
}

export class WebhookSecretDto {
  /**
   * The new signing secret, shown once. The previous one keeps signing beside it for 24 hours.
   * @example whsec_9Zr0aB5cD8eF1gH4iJ7kL0mN3oP6qR9s3q2+7w1XkQm=
   */
  secret: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-11-23T04:20:00.000Z', description: 'Until when the previous secret also signs' })
  previousSecretExpiresAt: string;
}

export class WebhookEndpointPageDto extends PageOf(WebhookEndpointDto) {}

export function toEndpointDto(e: WebhookEndpoint): WebhookEndpointDto {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    description: e.description,
    status: e.status,
    disabledReason: e.disabledReason ?? null,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}
