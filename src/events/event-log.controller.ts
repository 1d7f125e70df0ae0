import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import type { Principal } from '../common/request-context/principal.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { toPageRequest } from '../common/pagination/page.js';
import { EventDto, EventPageDto, ListEventsQueryDto } from './dto/event.dto.js';
import { EventLogService } from './event-log.service.js';

@ApiTags('webhooks')
@Controller('events')
export class EventLogController {
  constructor(private readonly log: EventLogService) {}

  @Get()
  @Scopes('events:read')
  @ApiOperation({
    summary: 'List events',
    description: 'The events of the last 30 days, newest first; filter with `kind`. Needs `events:read`: events carry personal data (e-mails of sign-ups).',
  })
  @ApiOkResponse({ type: EventPageDto })
  @ApiErrors(400)
  list(@CurrentPrincipal() p: Principal, @Query() query: ListEventsQueryDto): Promise<EventPageDto> {
    return this.log.list(p.accountId, query.kind, toPageRequest(query));
  }

  @Get(':id')
  @Scopes('events:read')
  @ApiOperation({ summary: 'Get an event' })
  @ApiParam({ name: 'id', example: 'evt_01JC3ZE8S0T2V4W6X8Y0Z2A4B6' })
  @ApiOkResponse({ type: EventDto })
  @ApiErrors(404)
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<EventDto> {
    return this.log.get(p.accountId, id);
  }
}
