import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { toPageRequest } from '../common/pagination/page.js';
import { isStorableDate } from '../common/dates.js';
import { RequestError } from '../common/errors/request-errors.js';
import type { Principal } from '../common/request-context/principal.js';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import { AuditLog } from './audit-log.service.js';
import { AuditEntryPageDto, ListAuditLogQueryDto } from './dto/audit-entry.dto.js';

@ApiTags('members')
@Controller('audit-log')
export class AuditLogController {
  constructor(private readonly log: AuditLog) {}

  @Get()
  @Scopes('audit:read')
  @ApiOperation({
    summary: 'List the audit log',
    description:
      'Who did what in the account (sign-ins, members, keys, service accounts, webhook endpoints, plan, app deletions, domains, user exports and erasures), newest first, kept 400 days. Filter with `action`, `actor` (an id), `from` and `to`. No route edits or deletes an entry.',
  })
  @ApiOkResponse({ type: AuditEntryPageDto })
  @ApiErrors(400)
  list(@CurrentPrincipal() p: Principal, @Query() query: ListAuditLogQueryDto): Promise<AuditEntryPageDto> {
    return this.log.list(
      p.accountId,
      { action: query.action, actor: query.actor, from: dateOf(query.from, 'from'), to: dateOf(query.to, 'to') },
      toPageRequest(query),
    );
  }
}

/** An ISO 8601 parameter as a Date PostgreSQL can compare (years 1–9999). */
function dateOf(value: string | undefined, name: string): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (!isStorableDate(date)) throw RequestError.invalid([`${name} must be an ISO 8601 date-time in years 1–9999`]);
  return date;
}
