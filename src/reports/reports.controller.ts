import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorOf, ApiErrors } from '../common/http/api-errors.decorator.js';
import type { Principal } from '../common/request-context/principal.js';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import { ReportSwitchesDto, UpdateReportSwitchesDto } from './dto/report-switches.dto.js';
import { ReportsError } from './reports.errors.js';
import { ReportsService } from './reports.service.js';

const APP_ID_PARAM = { name: 'appId', example: 'app_01JC3Z8W5Q4M0B7T2K9X1D6F3H' };
const WHO =
  'The calling member’s own switches (a portal session, or an API key a member made); a service account or the operator’s key has none (403 `report_member_required`).';

/** A member's e-mail reports of an app; ReportsService sends them. */
@ApiTags('analytics')
@Controller('apps/:appId/analytics/reports')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get()
  @Scopes('analytics:read')
  @ApiOperation({ summary: 'Your e-mail reports of an app', description: WHO })
  @ApiParam(APP_ID_PARAM)
  @ApiOkResponse({ type: ReportSwitchesDto })
  @ApiErrors(404)
  @ApiErrorOf('`report_member_required`: the caller is no member (a service account, the operator’s key)', ReportsError.memberRequired())
  get(@CurrentPrincipal() p: Principal, @Param('appId') appId: string): Promise<ReportSwitchesDto> {
    return this.reports.switches(p, appId);
  }

  @Put()
  @Scopes('analytics:read')
  @ApiOperation({
    summary: 'Turn your e-mail reports of an app on or off',
    description:
      `${WHO} The weekly report goes on Mondays (the previous ISO week), the monthly on the 1st (the previous month), at about 06:00 UTC, to the member’s e-mail address: ` +
      'visitors, pageviews, sign-ups and conversion rate with their change against the period before, the top pages, sources and goals. The first one is of the first period that ends after the switch is turned on. ' +
      'Each has a one-click unsubscribe link. A switch left out of the body stays as it is.',
  })
  @ApiParam(APP_ID_PARAM)
  @ApiOkResponse({ type: ReportSwitchesDto, description: 'The switches now' })
  @ApiErrors(400, 404, 415)
  @ApiErrorOf('`report_member_required`: the caller is no member (a service account, the operator’s key)', ReportsError.memberRequired())
  put(@CurrentPrincipal() p: Principal, @Param('appId') appId: string, @Body() body: UpdateReportSwitchesDto): Promise<ReportSwitchesDto> {
    return this.reports.setSwitches(p, appId, body);
  }
}
