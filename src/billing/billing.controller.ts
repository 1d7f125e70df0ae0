import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import type { Principal } from '../common/request-context/principal.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { PageQueryDto } from '../common/pagination/dto/page-query.dto.js';
import { DEFAULT_PAGE_LIMIT } from '../common/pagination/page.js';
import { BillingService } from './billing.service.js';
import { BillingDto, StatementPageDto } from './dto/billing.dto.js';
import { StatementsService } from './statements.service.js';

@ApiTags('billing')
@Controller('billing')
export class BillingController {
  constructor(
    private readonly billing: BillingService,
    private readonly statements: StatementsService,
  ) {}

  @Get()
  @Scopes('billing:read')
  @ApiOperation({
    summary: 'Plan and this month’s usage',
    description: 'Every meter with what the plan includes (null: unlimited) and whether it is a hard quota. The month is UTC.',
  })
  @ApiOkResponse({ type: BillingDto })
  get(@CurrentPrincipal() principal: Principal): Promise<BillingDto> {
    return this.billing.summary(principal.accountId);
  }

  @Get('statements')
  @Scopes('billing:read')
  @ApiOperation({
    summary: 'Monthly statements',
    description:
      'Newest first: this month’s (`open`, computed now), then the closed ones. A month closes on the first of the next. The plan’s price is the line with `meter: "plan"`; ' +
      'each meter’s overage is billed per block of `unitSize` units at `unitPriceCents`.',
  })
  @ApiOkResponse({ type: StatementPageDto })
  @ApiErrors(400)
  list(@CurrentPrincipal() principal: Principal, @Query() query: PageQueryDto): Promise<StatementPageDto> {
    return this.statements.list(principal.accountId, query.limit ?? DEFAULT_PAGE_LIMIT, query.cursor);
  }
}
