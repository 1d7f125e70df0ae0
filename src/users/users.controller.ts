import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import type { Principal } from '../common/request-context/principal.js';
import { type Actor, CurrentActor } from '../common/request-context/actor.js';
import { ApiErrorOf, ApiErrors } from '../common/http/api-errors.decorator.js';
import { toPageRequest } from '../common/pagination/page.js';
import { CreateUserDto, ListUsersQueryDto, UserDto, UserPageDto } from './dto/user.dto.js';
import { UsersService } from './users.service.js';
import { AuthError } from '../auth/auth.errors.js';

const USER_ID_PARAM = { name: 'id', example: 'usr_01JC3ZB4N6P8Q0R2S4T6V8W0XY' };

@ApiTags('users')
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post()
  @HttpCode(201)
  @Scopes('users:write')
  @ApiOperation({
    summary: 'Sign a person up to an app',
    description: 'The e-mail is trimmed and lowercased; the same e-mail twice in one app is a 409. Emits `user.created`.',
  })
  @ApiCreatedResponse({ type: UserDto })
  @ApiErrors(400, 409, 413, 415)
  @ApiErrorOf(
    "`missing_scope`, `role_forbids`; `credential_bound_to_app`: a function's PLATFORM_TOKEN named another app than its own",
    AuthError.boundToApp('app_01JC3ZB4N6P8Q0R2S4T6V8W0XY'),
  )
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateUserDto): Promise<UserDto> {
    // A function's PLATFORM_TOKEN signs visitors up to its own app only.
    if (principal.appId !== undefined && body.appId !== principal.appId) throw AuthError.boundToApp(principal.appId);
    return this.users.create(principal.accountId, body);
  }

  @Get()
  @Scopes('users:read')
  @ApiOperation({ summary: 'List users', description: 'Newest first; of one app with `appId` (which must be one of your apps), else of every app.' })
  @ApiOkResponse({ type: UserPageDto })
  @ApiErrors(400)
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListUsersQueryDto): Promise<UserPageDto> {
    return this.users.list(principal.accountId, query.appId, toPageRequest(query));
  }

  @Get(':id')
  @Scopes('users:read')
  @ApiOperation({ summary: 'Get a user' })
  @ApiParam(USER_ID_PARAM)
  @ApiOkResponse({ type: UserDto })
  @ApiErrors(404)
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<UserDto> {
    return this.users.get(principal.accountId, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @Scopes('users:write')
  @ApiOperation({ summary: 'Erase a user', description: 'Deletes the row: the e-mail is gone from the database. Emits `user.deleted` (id and appId only).' })
  @ApiParam(USER_ID_PARAM)
  @ApiNoContentResponse({ description: 'Erased' })
  @ApiErrors(404)
  async delete(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.users.delete(principal.accountId, actor, id, principal.appId);
  }
}
