import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsModule } from '../accounts/accounts.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { MailModule } from '../mail/mail.module.js';
import { InvitationMail } from './invitation-mail.js';
import { MemberInvitation } from './member-invitation.entity.js';
import { Member } from './member.entity.js';
import { MembersController } from './members.controller.js';
import { MembersRepository } from './members.repository.js';
import { MembersService } from './members.service.js';

/** An account's members and their invitations (`/v1/members`, `/v1/members/invitations`). Roles and what they allow: src/common/request-context/roles.ts. */
@Module({
  imports: [TypeOrmModule.forFeature([Member, MemberInvitation]), AuthModule, AccountsModule, MailModule],
  controllers: [MembersController],
  providers: [MembersRepository, MembersService, InvitationMail],
  exports: [MembersService, MembersRepository],
})
export class MembersModule {}
