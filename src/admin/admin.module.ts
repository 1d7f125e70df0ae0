import { PortalModule } from '../portal/portal.module.js';
import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module.js';
import { AccountsModule } from '../accounts/accounts.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { SsoModule } from '../sso/sso.module.js';
import { ReportsModule } from '../reports/reports.module.js';
import { AdminController } from './admin.controller.js';
import { AdminGuard } from './admin.guard.js';
import { AdminTokenService } from './admin-token.service.js';

@Module({
  imports: [AccountsModule, AuthModule, RateLimitModule, BillingModule, PortalModule, SsoModule, ReportsModule],
  controllers: [AdminController],
  providers: [AdminTokenService, AdminGuard],
})
export class AdminModule {}
