import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorOf, ApiErrors } from '../common/http/api-errors.decorator.js';
import { PageQueryDto } from '../common/pagination/dto/page-query.dto.js';
import { toPageRequest } from '../common/pagination/page.js';
import { type Actor, CurrentActor } from '../common/request-context/actor.js';
import type { Principal } from '../common/request-context/principal.js';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import { RequestContextError } from '../common/request-context/request-context.errors.js';
import { ResponseNotKept, SECRET_NOT_KEPT } from '../common/idempotency/idempotent.decorator.js';
import { ChangeRoleDto, CreateInvitationDto, InvitationDto, MemberDto, MemberPageDto, PendingInvitationPageDto } from './dto/member.dto.js';
import { MembersError } from './members.errors.js';
import { MembersService } from './members.service.js';

const MEMBER_ID = { name: 'id', example: 'mem_01JC3Z8W5Q4M0B7T2K9X1D6F3H' };
const INVITATION_ID = { name: 'id', example: 'inv_01JC3Z8W5Q4M0B7T2K9X1D6F3H' };
const OWNER_MEMBER_ONLY =
  'Making, demoting or removing an owner takes an owner signed in to the portal: an API key or access token gets 403 `owner_member_required` whoever created it, a portal session of another role 403 `owners_only`.';

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
      "The link is single use, works for the invited e-mail only and for 7 days. It is e-mailed when the server has SMTP_URL; otherwise it is in this answer, once. At most 3 invitation e-mails go to one address (from any account) per 15 minutes: 429 `invitation_mail_limit` with Retry-After, nothing made. An e-mail that is a member already → 409. The invitation records the member the caller acts for as its sender: it never grants more than the sender's role when it is used, and is revoked when they are removed. " +
      OWNER_MEMBER_ONLY,
  })
  @ApiCreatedResponse({ type: InvitationDto })
  @ApiErrors(400, 409, 415)
  @ApiErrorOf(
    '`invitation_mail_limit`: 3 invitation e-mails to this address in the last 15 minutes (Retry-After)',
    MembersError.invitationMailLimit(3, 15, 540),
  )
  @ApiErrorOf('`owner_member_required`: a credential tried to invite an owner', RequestContextError.ownerMemberRequired('make an owner', 'api_key'))
  invite(@CurrentPrincipal() p: Principal, @CurrentActor() actor: Actor, @Body() body: CreateInvitationDto): Promise<InvitationDto> {
    return this.members.invite(p, actor, body.email, body.role);
  }

  @Get('invitations')
  @Scopes('members:read')
  @ApiOperation({
    summary: "List the account's pending invitations",
    description: 'Invitations neither used, revoked nor expired, newest first, each with its sender. Never the link.',
  })
  @ApiOkResponse({ type: PendingInvitationPageDto })
  @ApiErrors(400)
  pendingInvitations(@CurrentPrincipal() p: Principal, @Query() query: PageQueryDto): Promise<PendingInvitationPageDto> {
    return this.members.pendingInvitations(p.accountId, toPageRequest(query));
  }

  @Delete('invitations/:id')
  @HttpCode(204)
  @Scopes('members:write')
  @ApiOperation({ summary: 'Revoke a pending invitation', description: 'Its link opens nothing from then on. Audited as `member.invitation_revoked`.' })
  @ApiParam(INVITATION_ID)
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiErrorOf('`invitation_not_found`: no pending invitation with this id in the account', MembersError.invitationNotFound('inv_01JC3Z8W5Q4M0B7T2K9X1D6F3H'))
  async revokeInvitation(@CurrentPrincipal() p: Principal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.members.revokeInvitation(p.accountId, actor, id);
  }

  @Patch(':id')
  @Scopes('members:write')
  @ApiOperation({
    summary: "Change a member's role",
    description:
      "Takes effect at once: in the portal, and for the API keys and service accounts (their tokens) the member created, bounded by the new role from their next request on every instance; the member's pending invitations above the new role are revoked. The last owner cannot be demoted (409 `last_owner`). " +
      OWNER_MEMBER_ONLY,
  })
  @ApiParam(MEMBER_ID)
  @ApiOkResponse({ type: MemberDto })
  @ApiErrors(400, 404, 409, 415)
  @ApiErrorOf('`owner_member_required`: a credential tried to make or demote an owner', RequestContextError.ownerMemberRequired('make an owner', 'api_key'))
  changeRole(@CurrentPrincipal() p: Principal, @CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: ChangeRoleDto): Promise<MemberDto> {
    return this.members.changeRole(p, actor, id, body.role);
  }

  @Delete(':id')
  @HttpCode(204)
  @Scopes('members:write')
  @ApiOperation({
    summary: 'Remove a member',
    description:
      'Their portal sessions end, and the API keys and service accounts (with their tokens) they created and the invitations they sent are revoked, at once on every instance. The last owner cannot be removed (409 `last_owner`). ' +
      OWNER_MEMBER_ONLY,
  })
  @ApiParam(MEMBER_ID)
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiErrors(404, 409)
  @ApiErrorOf('`owner_member_required`: a credential tried to remove an owner', RequestContextError.ownerMemberRequired('remove an owner', 'api_key'))
  async remove(@CurrentPrincipal() p: Principal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.members.remove(p, actor, id);
  }
}
