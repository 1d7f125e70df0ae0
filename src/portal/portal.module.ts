import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { BillingModule } from '../billing/billing.module.js';
import { PortalAuthService } from './portal-auth.service.js';
import { PortalController } from './portal.controller.js';
import { PortalRepository } from './portal.repository.js';

/** The developer portal at /portal/: sign-in (invites, passwords, sessions, CSRF, lockout) and pages over the API's own services. */
@Module({
  imports: [AuthModule, BillingModule],
  controllers: [PortalController],
  providers: [PortalRepository, PortalAuthService],
  exports: [PortalAuthService],
})
export class PortalModule {}
