import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AccountsService } from '../accounts/accounts.service.js';
import { ApiKeysService } from '../auth/api-keys.service.js';
import { ALL_SCOPES } from '../common/request-context/scopes.js';
import { type Actor, CurrentActor } from '../common/request-context/actor.js';
import { BillingService } from '../billing/billing.service.js';
import { PortalAuthService } from '../portal/portal-auth.service.js';
import { SsoSettingsService } from '../sso/sso-settings.service.js';
import { SsoError } from '../sso/sso.errors.js';
import { AdminAccountDto, ChangePlanDto } from '../billing/dto/billing.dto.js';
import { ApiErrorOf, ApiErrors } from '../common/http/api-errors.decorator.js';
import { Public } from '../common/http/public.decorator.js';
import { AdminGuard } from './admin.guard.js';
import { ReportsService } from '../reports/reports.service.js';
import { SentReportsDto } from '../reports/dto/report-switches.dto.js';
import { CreateAccountDto, CreatedAccountDto, PortalInviteDto } from './dto/create-account.dto.js';

@ApiTags('admin')
@ApiBearerAuth('admin')
@Public()
@UseGuards(AdminGuard)
@Controller('admin')
export class AdminController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly apiKeys: ApiKeysService,
    private readonly billing: BillingService,
    private readonly portal: PortalAuthService,
    private readonly sso: SsoSettingsService,
    private readonly reports: ReportsService,
  ) {}

  @Post('accounts')
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a developer account', description: 'Needs the admin token (ADMIN_TOKEN).' })
  @ApiCreatedResponse({ type: CreatedAccountDto, description: 'The account and its first API key (all scopes), shown once' })
  @ApiErrors(400, 401, 409, 415)
  async createAccount(@CurrentActor() actor: Actor, @Body() body: CreateAccountDto): Promise<CreatedAccountDto> {
    const account = await this.accounts.create(body.email);
    const key = await this.apiKeys.create(account.id, actor, 'default', [ALL_SCOPES]);
    return { accountId: account.id, email: account.email, apiKey: key.key, portalInviteUrl: await this.portal.invite(account.id) };
  }

  @Get('accounts/:accountId')
  @ApiOperation({ summary: 'An account: its plan and this month’s usage', description: 'Needs the admin token.' })
  @ApiParam({ name: 'accountId', example: 'acc_01JC3Z7Y2X0W9V8U7T6S5R4Q3P' })
  @ApiOkResponse({ type: AdminAccountDto })
  @ApiErrors(401, 404)
  getAccount(@Param('accountId') accountId: string): Promise<AdminAccountDto> {
    return this.billing.account(accountId);
  }

  @Post('accounts/:accountId/invite')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Re-issue an account’s portal invite',
    description:
      'A new single-use link (valid 7 days) where the developer sets a portal password — for an invite that expired, or a developer locked out. The account’s earlier unused invite links stop working; setting a password through the new one signs out the account’s portal sessions. Needs the admin token.',
  })
  @ApiParam({ name: 'accountId', example: 'acc_01JC3Z7Y2X0W9V8U7T6S5R4Q3P' })
  @ApiCreatedResponse({ type: PortalInviteDto, description: 'The new invite link, shown once' })
  @ApiErrors(401, 404, 429)
  async reissueInvite(@Param('accountId') accountId: string): Promise<PortalInviteDto> {
    return { portalInviteUrl: await this.portal.reissueInvite(accountId) };
  }

  @Put('accounts/:accountId/plan')
  @ApiOperation({
    summary: 'Move an account to another plan',
    description:
      'Its rate limits and quotas change at once (on other instances within 10 s). Emits `billing.plan.changed` `{ from, to }`. Needs the admin token.',
  })
  @ApiParam({ name: 'accountId', example: 'acc_01JC3Z7Y2X0W9V8U7T6S5R4Q3P' })
  @ApiOkResponse({ type: AdminAccountDto, description: 'The account on its new plan' })
  @ApiErrors(400, 401, 404, 415)
  async changePlan(@CurrentActor() actor: Actor, @Param('accountId') accountId: string, @Body() body: ChangePlanDto): Promise<AdminAccountDto> {
    await this.billing.changePlan(accountId, actor, body.plan);
    return this.billing.account(accountId);
  }

  @Delete('accounts/:accountId/sso')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Turn an account’s single sign-on off',
    description:
      'The way back in when every owner is locked out (SSO required, the provider down or misconfigured, no owner with MFA): no API key or access token may change single sign-on, only an owner signed in to the portal — or the operator, here. The settings and the secret are forgotten; members sign in with passwords again. Audited as `sso.removed` by the operator. Needs the admin token.',
  })
  @ApiParam({ name: 'accountId', example: 'acc_01JC3Z7Y2X0W9V8U7T6S5R4Q3P' })
  @ApiNoContentResponse({ description: 'Turned off' })
  @ApiErrors(401)
  @ApiErrorOf('`sso_not_configured`: the account has no single sign-on (or does not exist)', SsoError.notConfigured())
  async removeSso(@CurrentActor() actor: Actor, @Param('accountId') accountId: string): Promise<void> {
    await this.sso.remove(accountId, actor);
  }

  @Post('analytics-reports/send')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send the e-mail reports due now',
    description:
      'What the daily job `analytics-reports` does (06:00 UTC in worker processes), now: each switched-on weekly report of the previous ISO week and monthly report of the previous month not sent yet goes out — once per member, app and period, however often this is called and on however many instances. Without SMTP_URL nothing is sent or marked. Needs the admin token.',
  })
  @ApiOkResponse({ type: SentReportsDto })
  @ApiErrors(401)
  sendReports(): Promise<SentReportsDto> {
    return this.reports.sendDue();
  }
}
