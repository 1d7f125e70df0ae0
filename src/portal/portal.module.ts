import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module.js';
import { MailModule } from '../mail/mail.module.js';
import { PasswordResetService } from './account/password-reset.service.js';
import { PasswordResetsRepository } from './account/password-resets.repository.js';
import { PortalPasswordController } from './account/portal-account.controller.js';
import { PortalAccountService } from './account/portal-account.service.js';
import { ConfirmPasswordController } from './account/confirm-password.controller.js';
import { ReauthenticationService } from './account/reauthentication.service.js';
import { SignInUnlockController } from './account/sign-in-unlock.controller.js';
import { SignInUnlock } from './account/sign-in-unlock.service.js';
import { UnlockLinksRepository } from './account/unlock-links.repository.js';
import { UnlockLinks } from './account/unlock-links.service.js';
import { AnalyticsModule } from '../analytics/analytics.module.js';
import { ShareModule } from '../share/share.module.js';
import { AppsModule } from '../apps/apps.module.js';
import { UsersModule } from '../users/users.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { DeploymentsModule } from '../deployments/deployments.module.js';
import { DomainsModule } from '../domains/domains.module.js';
import { LandingPagesModule } from '../landing-pages/landing-pages.module.js';
import { PublishingModule } from '../publishing/publishing.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { PortalAnalyticsController } from './analytics/portal-analytics.controller.js';
import { PortalAnalyticsPages } from './analytics/portal-analytics.pages.js';
import { PortalReportSwitches } from './analytics/report-switches.js';
import { ReportsModule } from '../reports/reports.module.js';
import { PortalAccountPages } from './portal-account.pages.js';
import { EnvVarsModule } from '../functions/env-vars.module.js';
import { FunctionsModule } from '../functions/functions.module.js';
import { PortalAppsPages } from './portal-apps.pages.js';
import { PortalDeploymentsPages } from './portal-deployments.pages.js';
import { PortalVariablesPages } from './portal-variables.pages.js';
import { PortalWebhooksPages } from './portal-webhooks.pages.js';
import { BillingModule } from '../billing/billing.module.js';
import { PortalAuthService } from './portal-auth.service.js';
import { PortalEditorPages } from './portal-editor.pages.js';
import { PortalKeysPages } from './portal-keys.pages.js';
import { PortalSessionGuard } from './portal-session.guard.js';
import { PortalRoleGuard } from './portal-role.guard.js';
import { PortalAccountController } from './routes/portal-account.controller.js';
import { PortalAppsController } from './routes/portal-apps.controller.js';
import { PortalDeploymentsController } from './routes/portal-deployments.controller.js';
import { PortalAuthController } from './routes/portal-auth.controller.js';
import { PortalEditorController } from './routes/portal-editor.controller.js';
import { PortalKeysController } from './routes/portal-keys.controller.js';
import { PortalUsersController } from './routes/portal-users.controller.js';
import { PortalWebhooksController } from './routes/portal-webhooks.controller.js';
import { PortalRepository } from './portal.repository.js';
import { PasswordsModule } from './passwords.module.js';
import { SignInRateLimit } from './sign-in-rate-limit.js';
import { SignInLockout } from './sign-in-lockout.js';
import { PortalSudoGuard } from './portal-sudo.guard.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { MembersModule } from '../members/members.module.js';
import { PortalJoinController } from './team/portal-join.controller.js';
import { PortalJoinService } from './team/portal-join.service.js';
import { PortalTeamController } from './team/portal-team.controller.js';
import { PortalTeamPages } from './team/portal-team.pages.js';
import { MfaModule } from '../mfa/mfa.module.js';
import { PortalMfaController, PortalSecondFactorController } from './team/portal-mfa.controller.js';
import { PortalMfaPages } from './team/portal-mfa.pages.js';
import { PortalSecondFactor } from './team/portal-second-factor.service.js';
import { SecondFactorTicketsRepository } from './team/second-factor-tickets.repository.js';
import { SsoModule } from '../sso/sso.module.js';
import { PortalSsoSettingsController } from './sso/portal-sso-settings.controller.js';
import { PortalSsoController } from './sso/portal-sso.controller.js';

/** The developer portal at /portal/: sign-in (invites, passwords, sessions, sudo mode, CSRF, lockout and unlock links, per-IP limit) and pages over the API's own services. */
@Module({
  imports: [
    PasswordsModule,
    AccountsModule,
    ReportsModule,
    MailModule,
    AuthModule,
    BillingModule,
    AppsModule,
    DeploymentsModule,
    FunctionsModule,
    EnvVarsModule,
    LandingPagesModule,
    PublishingModule,
    DomainsModule,
    WebhooksModule,
    UsersModule,
    AnalyticsModule,
    ShareModule,
    RateLimitModule,
    MembersModule,
    MfaModule,
    SsoModule,
  ],
  // One controller per area; the account's also holds /portal/ and the 404 page of unknown paths (its wildcard routes).
  controllers: [
    PortalAuthController,
    PortalJoinController,
    PortalTeamController,
    PortalMfaController,
    PortalSecondFactorController,
    PortalAppsController,
    PortalDeploymentsController,
    PortalEditorController,
    PortalKeysController,
    PortalUsersController,
    PortalWebhooksController,
    PortalAnalyticsController,
    PortalAccountController,
    PortalPasswordController,
    ConfirmPasswordController,
    SignInUnlockController,
    PortalSsoController,
    PortalSsoSettingsController,
  ],
  providers: [
    PortalRepository,
    PortalAuthService,
    PortalSessionGuard,
    PortalRoleGuard,
    SignInRateLimit,
    PortalAppsPages,
    PortalDeploymentsPages,
    PortalVariablesPages,
    PortalEditorPages,
    PortalKeysPages,
    PortalWebhooksPages,
    PortalAccountPages,
    PortalAccountService,
    PasswordResetService,
    PasswordResetsRepository,
    PortalAnalyticsPages,
    PortalReportSwitches,
    PortalJoinService,
    PortalTeamPages,
    PortalMfaPages,
    PortalSecondFactor,
    SecondFactorTicketsRepository,
    PortalSudoGuard,
    SignInLockout,
    UnlockLinks,
    UnlockLinksRepository,
    SignInUnlock,
    ReauthenticationService,
  ],
  exports: [PortalAuthService, PortalSessionGuard],
})
export class PortalModule {}
