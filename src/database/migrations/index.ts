import { CreateAccounts1763780000000 } from './1763780000000-create-accounts.js';
import { CreateCredentials1763790000000 } from './1763790000000-create-credentials.js';
import { CreateAppsDeploymentsUsers1763800000000 } from './1763800000000-create-apps-deployments-users.js';
import { CreateIdempotencyKeys1763800000001 } from './1763800000001-create-idempotency-keys.js';
import { CreateAiUsage1763810000000 } from './1763810000000-create-ai-usage.js';
import { CreateWebhooks1763820000000 } from './1763820000000-create-webhooks.js';
import { EventsOutbox1763830000000 } from './1763830000000-events-outbox.js';
import { CreateVisitorSalts1763840000000 } from './1763840000000-create-visitor-salts.js';
import { CreateLandingPages1763845000000 } from './1763845000000-create-landing-pages.js';
import { Publishing1763880000000 } from './1763880000000-publishing.js';
import { CreateAnalytics1763890000000 } from './1763890000000-create-analytics.js';
import { CreateBilling1763900000000 } from './1763900000000-create-billing.js';
import { CreatePortal1763910000000 } from './1763910000000-create-portal.js';
import { UsagePending1763920000000 } from './1763920000000-usage-pending.js';
import { SlugHolds1763930000000 } from './1763930000000-slug-holds.js';
import { PortalSignInAttempts1763934000000 } from './1763934000000-portal-sign-in-attempts.js';
import { QuotaReservations1763935000000 } from './1763935000000-quota-reservations.js';
import { DeploymentFiles1763940000000 } from './1763940000000-deployment-files.js';
import { WebhooksThroughOutages1763950000000 } from './1763950000000-webhooks-through-outages.js';
import { CustomDomains1763960000000 } from './1763960000000-custom-domains.js';
import { Members1763970000000 } from './1763970000000-members.js';
import { PortalPasswordResets1763973300000 } from './1763973300000-portal-password-resets.js';
import { AuditLog1763980000000 } from './1763980000000-audit-log.js';
import { MfaAndSso1763990000000 } from './1763990000000-mfa-and-sso.js';
import { MemberPasswords1764000000000 } from './1764000000000-member-passwords.js';
import { MemberSsoIdentities1764010000000 } from './1764010000000-member-sso-identities.js';
import { AnalyticsInbox1764020000000 } from './1764020000000-analytics-inbox.js';
import { AnalyticsVisitorDays1764030000000 } from './1764030000000-analytics-visitor-days.js';
import { AnalyticsWithoutAppForeignKeys1764040000000 } from './1764040000000-analytics-without-app-foreign-keys.js';
import { SignInHardening1764052000000 } from './1764052000000-sign-in-hardening.js';
import { AiGateway1764200000000 } from './1764200000000-ai-gateway.js';
import { AiBudgets1764210000000 } from './1764210000000-ai-budgets.js';
import { TeamCredentials1764300000000 } from './1764300000000-team-credentials.js';
import { StorageMeter1764500000000 } from './1764500000000-storage-meter.js';
import { AnalyticsGoalRollups1764760000000 } from './1764760000000-analytics-goal-rollups.js';
import { DomainProofRechecks1764610000000 } from './1764610000000-domain-proof-rechecks.js';
import { SsoDomainProofs1764610000001 } from './1764610000001-sso-domain-proofs.js';
import { FunctionVariables1764630000000 } from './1764630000000-function-variables.js';
import { FunctionLogs1764630001000 } from './1764630001000-function-logs.js';
import { AnalyticsCustomEvents1764640000000 } from './1764640000000-analytics-custom-events.js';
import { AnalyticsGoals1764640100000 } from './1764640100000-analytics-goals.js';
import { AnalyticsCountries1764640200000 } from './1764640200000-analytics-countries.js';
import { AppSplits1764650000000 } from './1764650000000-app-splits.js';
import { AnalyticsShares1764730000000 } from './1764730000000-analytics-shares.js';
import { AnalyticsReports1764740000000 } from './1764740000000-analytics-reports.js';
import { SsoDomainRechecks1764750000000 } from './1764750000000-sso-domain-rechecks.js';

/** Every migration, oldest first. Listed explicitly so the same list works from src/ and dist/. */
export const MIGRATIONS = [
  CreateAccounts1763780000000,
  CreateCredentials1763790000000,
  CreateAppsDeploymentsUsers1763800000000,
  CreateIdempotencyKeys1763800000001,
  CreateAiUsage1763810000000,
  CreateWebhooks1763820000000,
  EventsOutbox1763830000000,
  CreateVisitorSalts1763840000000,
  CreateLandingPages1763845000000,
  Publishing1763880000000,
  CreateAnalytics1763890000000,
  CreateBilling1763900000000,
  CreatePortal1763910000000,
  UsagePending1763920000000,
  SlugHolds1763930000000,
  PortalSignInAttempts1763934000000,
  QuotaReservations1763935000000,
  DeploymentFiles1763940000000,
  WebhooksThroughOutages1763950000000,
  CustomDomains1763960000000,
  Members1763970000000,
  PortalPasswordResets1763973300000,
  AuditLog1763980000000,
  MfaAndSso1763990000000,
  MemberPasswords1764000000000,
  MemberSsoIdentities1764010000000,
  AnalyticsInbox1764020000000,
  AnalyticsVisitorDays1764030000000,
  AnalyticsWithoutAppForeignKeys1764040000000,
  SignInHardening1764052000000,
  AiGateway1764200000000,
  AiBudgets1764210000000,
  TeamCredentials1764300000000,
  StorageMeter1764500000000,
  DomainProofRechecks1764610000000,
  SsoDomainProofs1764610000001,
  FunctionVariables1764630000000,
  FunctionLogs1764630001000,
  AnalyticsCustomEvents1764640000000,
  AnalyticsGoals1764640100000,
  AnalyticsCountries1764640200000,
  AppSplits1764650000000,
  AnalyticsShares1764730000000,
  AnalyticsReports1764740000000,
  SsoDomainRechecks1764750000000,
  AnalyticsGoalRollups1764760000000,
];
