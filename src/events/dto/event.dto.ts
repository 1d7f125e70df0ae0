import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageOf } from '../../common/pagination/page-of.js';
import { PageQueryDto } from '../../common/pagination/dto/page-query.dto.js';
import { LOGGED_EVENT_KINDS } from '../domain-events.js';
import type { StoredEvent } from '../stored-event.entity.js';

export class ListEventsQueryDto extends PageQueryDto {
  /** Only events of this kind. @example user.created */
  @IsOptional()
  @IsIn(LOGGED_EVENT_KINDS, { message: `kind must be one of: ${LOGGED_EVENT_KINDS.join(', ')}` })
  kind?: string;
}

/** An event as the API and the webhook body show it. */
export class EventDto {
  /** @example evt_01JC3ZE8S0T2V4W6X8Y0Z2A4B6 */
  id: string;

  /** @example user.created */
  event: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-11-22T04:20:00.000Z' })
  createdAt: string;

  @ApiProperty({ type: Object, example: { id: 'usr_01JC3ZB4N6P8Q0R2S4T6V8W0XY', email: 'ada@example.com', appId: 'app_01JC3Z8W5Q4M0B7T2K9X1D6F3H' } })
  data: Record<string, unknown>;
}

export class EventPageDto extends PageOf(EventDto) {}

export function toEventDto(e: Pick<StoredEvent, 'id' | 'kind' | 'createdAt' | 'data'>): EventDto {
  return { id: e.id, event: e.kind, createdAt: e.createdAt.toISOString(), data: e.data };
}
