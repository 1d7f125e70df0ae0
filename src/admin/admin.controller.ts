import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AccountsService } from '../accounts/accounts.service.js';
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
  constructor(private readonly accounts: AccountsService) {}

  @Post('accounts')
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a developer account', description: 'Needs the admin token (ADMIN_TOKEN).' })
  @ApiErrors(400, 401, 409, 415)
  async createAccount(@Body() body: CreateAccountDto): Promise<CreatedAccountDto> {
    const account = await this.accounts.create(body.email);
    return { accountId: account.id, email: account.email };
  }
}
