import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { AdminController } from './admin.controller.js';
import { AdminGuard } from './admin.guard.js';
import { AdminTokenService } from './admin-token.service.js';

@Module({
  imports: [AccountsModule, AuthModule],
  controllers: [AdminController],
  providers: [AdminTokenService, AdminGuard],
})
export class AdminModule {}
