import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AccountsService } from '../accounts/accounts.service.js';
import { ApiKeysService } from '../auth/api-keys.service.js';
import { ALL_SCOPES } from '../auth/scopes.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { Public } from '../common/http/public.decorator.js';
import { AdminGuard } from './admin.guard.js';
import { CreateAccountDto, CreatedAccountDto } from './dto/create-account.dto.js';

@ApiTags('admin')
@ApiBearerAuth('admin')
@Public()
@UseGuards(AdminGuard)
@Controller('admin')
export class AdminController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  @Post('accounts')
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a developer account', description: 'Needs the admin token (ADMIN_TOKEN).' })
  @ApiCreatedResponse({ type: CreatedAccountDto, description: 'The account and its first API key (all scopes), shown once' })
  @ApiErrors(400, 401, 409, 415)
  async createAccount(@Body() body: CreateAccountDto): Promise<CreatedAccountDto> {
    const account = await this.accounts.create(body.email);
    const key = await this.apiKeys.create(account.id, 'default', [ALL_SCOPES]);
    return { accountId: account.id, email: account.email, apiKey: key.key };
  }
}
