import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { PageQueryDto } from '../common/pagination/dto/page-query.dto.js';
import { toPageRequest } from '../common/pagination/page.js';
import { type Actor, CurrentActor } from '../common/request-context/actor.js';
import type { Principal } from '../common/request-context/principal.js';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import { ResponseNotKept, SECRET_NOT_KEPT } from '../common/idempotency/idempotent.decorator.js';
import { ChangeRoleDto, CreateInvitationDto, InvitationDto, MemberDto, MemberPageDto } from './dto/member.dto.js';
import { MembersService } from './members.service.js';

const MEMBER_ID = { name: 'id', example: 'mem_01JC3Z8W5Q4M0B7T2K9X1D6F3H' };

@ApiTags('members')
@Controller('members')
export class MembersController {
  constructor(private readonly members: MembersService) {}

  @Get()
  @Scopes('members:read')
  @ApiOperation({
    summary: "List the account's members",
    description: 'The people who sign in to the portal, each with a role (owner, admin, developer, viewer).',
  })
  @ApiOkResponse({ type: MemberPageDto })
  @ApiErrors(400)
  list(@CurrentPrincipal() p: Principal, @Query() query: PageQueryDto): Promise<MemberPageDto> {
    return this.members.list(p.accountId, toPageRequest(query));
  }

  @Post('invitations')
  @ResponseNotKept(SECRET_NOT_KEPT)
  @HttpCode(201)
  @Scopes('members:write')
  @ApiOperation({
    summary: 'Invite a member',
    description:
      'The link is single use, works for the invited e-mail only and for 7 days. It is e-mailed when the server has SMTP_URL; otherwise it is in this answer, once. Only an owner invites an owner (403 `owners_only`); an e-mail that is a member already → 409.',
  })
  @ApiCreatedResponse({ type: InvitationDto })
  @ApiErrors(400, 409, 415)
  invite(@CurrentPrincipal() p: Principal, @CurrentActor() actor: Actor, @Body() body: CreateInvitationDto): Promise<InvitationDto> {
    return this.members.invite(p, actor, body.email, body.role);
  }

  @Patch(':id')
  @Scopes('members:write')
  @ApiOperation({
    summary: "Change a member's role",
    description:
      'Takes effect at once: in the portal, and for the API keys the member created (bounded by the new role from their next request). Only an owner makes or demotes an owner (403 `owners_only`); the last owner cannot be demoted (409 `last_owner`).',
  })
  @ApiParam(MEMBER_ID)
  @ApiOkResponse({ type: MemberDto })
  @ApiErrors(400, 404, 409, 415)
  changeRole(@CurrentPrincipal() p: Principal, @CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: ChangeRoleDto): Promise<MemberDto> {
    return this.members.changeRole(p, actor, id, body.role);
  }

  @Delete(':id')
  @HttpCode(204)
  @Scopes('members:write')
  @ApiOperation({
    summary: 'Remove a member',
    description:
      'Their portal sessions end and the API keys they created are revoked, at once. Only an owner removes an owner (403 `owners_only`); the last owner cannot be removed (409 `last_owner`).',
  })
  @ApiParam(MEMBER_ID)
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiErrors(404, 409)
  async remove(@CurrentPrincipal() p: Principal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.members.remove(p, actor, id);
  }
}
