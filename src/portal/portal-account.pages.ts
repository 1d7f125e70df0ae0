import { Injectable } from '@nestjs/common';
import { AnalyticsStatsService } from '../analytics/analytics-stats.service.js';
import { AppsService } from '../apps/apps.service.js';
import { CreateServiceAccountDto } from '../auth/dto/service-account.dto.js';
import { ServiceAccountsService } from '../auth/service-accounts.service.js';
import { AuditLog } from '../audit/audit-log.service.js';
import { SCOPES } from '../common/request-context/scopes.js';
import { BillingService } from '../billing/billing.service.js';
import { StatementsService } from '../billing/statements.service.js';
import { decodeCursor, type Page } from '../common/pagination/page.js';
import { AppConfig } from '../config/app-config.js';
import { EventLogService } from '../events/event-log.service.js';
import type { UserDto } from '../users/dto/user.dto.js';
import { UsersService } from '../users/users.service.js';
import { csvField } from '../common/csv.js';
import { meterRow } from './portal-format.js';
import { FieldErrors, validateForm } from './portal-forms.js';
import { chrome, Form, ignoreNotFound, PortalAnswer, portalActor, portalPrincipal, scopesOf, Signed, text } from './portal-page.js';
import { renderPortal } from './portal-pages.js';
import { barChart, lastDays } from './svg-chart.js';

const LIST = { limit: 100 };

/** The account-wide pages: overview (usage and 30-day charts), users, service accounts, events, billing. */
@Injectable()
export class PortalAccountPages {
  constructor(
    private readonly billing: BillingService,
    private readonly statements: StatementsService,
    private readonly analytics: AnalyticsStatsService,
    private readonly apps: AppsService,
    private readonly users: UsersService,
    private readonly serviceAccounts: ServiceAccountsService,
    private readonly events: EventLogService,
    private readonly audit: AuditLog,
    private readonly config: AppConfig,
  ) {}

  async overview(signed: Signed): Promise<PortalAnswer> {
    const days = lastDays(30);
    const range = { from: days[0], to: days[days.length - 1] };
    const [billing, requests, tokens, visits] = await Promise.all([
      this.billing.summary(signed.accountId),
      this.billing.daily(signed.accountId, 'api.requests', range.from, range.to),
      this.billing.daily(signed.accountId, 'ai.tokens', range.from, range.to),
      this.analytics.accountDaily(signed.accountId, range),
    ]);
    const series = (values: (day: string) => number) => days.map((day) => ({ label: day, value: values(day) }));
    const charts = [
      barChart(
        'API requests',
        series((d) => requests.get(d) ?? 0),
      ),
      barChart(
        'AI tokens',
        series((d) => tokens.get(d) ?? 0),
      ),
      barChart(
        'Visitors',
        series((d) => visits.get(d)?.visitors ?? 0),
      ),
      barChart(
        'Sign-ups',
        series((d) => visits.get(d)?.signups ?? 0),
      ),
    ];
    const usage = billing.usage.map(meterRow);
    // The meter nearest its limit, not the whole table (that is the billing page's).
    const busiest = [...billing.usage].filter((u) => u.percent !== null).sort((a, b) => (b.percent ?? 0) - (a.percent ?? 0))[0];
    const apps = await this.apps.list(signed.accountId, { limit: 1 });
    return renderPortal('overview', {
      ...chrome(signed),
      plan: billing.plan,
      busiest: busiest ? meterRow(busiest) : undefined,
      meters: usage.length,
      charts,
      hasApps: apps.data.length > 0,
      publicUrl: this.config.publicUrl,
    });
  }

  async billingPage(signed: Signed): Promise<PortalAnswer> {
    const [billing, statements] = await Promise.all([this.billing.summary(signed.accountId), this.statements.list(signed.accountId, 24)]);
    return renderPortal('billing', { ...chrome(signed), billing, usage: billing.usage.map(meterRow), statements: statements.data });
  }

  async eventsPage(signed: Signed): Promise<PortalAnswer> {
    return renderPortal('events', { ...chrome(signed), events: (await this.events.list(signed.accountId, undefined, LIST)).data });
  }

  async usersPage(signed: Signed, appId?: string): Promise<PortalAnswer> {
    const apps = (await this.apps.list(signed.accountId, LIST)).data;
    const chosen = apps.find((a) => a.appId === appId)?.appId ?? apps[0]?.appId;
    const users = chosen ? (await this.users.list(signed.accountId, chosen, LIST)).data : [];
    return renderPortal('users', { ...chrome(signed), apps, appId: chosen, users });
  }

  /** Every user of the app as CSV (e-mail, signed-up time), all pages. */
  async usersCsv(signed: Signed, appId: string): Promise<string> {
    const lines = ['id,email,created_at'];
    let cursor: string | null = null;
    do {
      const page: Page<UserDto> = await this.users.list(signed.accountId, appId, { limit: 100, after: cursor ? decodeCursor(cursor) : undefined });
      for (const u of page.data) lines.push([u.id, csvField(u.email), u.createdAt].join(','));
      cursor = page.nextCursor;
    } while (cursor);
    await this.audit.record(signed.accountId, portalActor(signed), 'users.exported', appId);
    return `${lines.join('\n')}\n`;
  }

  async eraseUser(signed: Signed, userId: string, form: Form): Promise<PortalAnswer> {
    await this.users.delete(signed.accountId, portalActor(signed), userId).catch(ignoreNotFound);
    return { redirect: `/portal/users?appId=${encodeURIComponent(text(form, 'appId', 40))}` };
  }

  async serviceAccountsPage(signed: Signed, notes: { created?: unknown; errors?: FieldErrors; input?: Form } = {}, status = 200): Promise<PortalAnswer> {
    return renderPortal(
      'service-accounts',
      { ...chrome(signed), accounts: await this.serviceAccounts.list(signed.accountId), scopes: SCOPES, ...notes },
      status,
    );
  }

  /** Through POST /v1/service-accounts's DTO: a name it refuses is said next to the field, the form keeping what was typed. */
  async createServiceAccount(signed: Signed, form: Form): Promise<PortalAnswer> {
    const checked = await validateForm(CreateServiceAccountDto, { name: text(form, 'name') || 'service account', scopes: scopesOf(form, ['apps:read']) });
    if (!checked.ok) return this.serviceAccountsPage(signed, { errors: checked.errors, input: form }, 400);
    const created = await this.serviceAccounts.createFor(portalPrincipal(signed), portalActor(signed), checked.value.name, checked.value.scopes);
    return this.serviceAccountsPage(signed, { created });
  }

  async revokeServiceAccount(signed: Signed, id: string): Promise<PortalAnswer> {
    await this.serviceAccounts.revoke(signed.accountId, portalActor(signed), id).catch(ignoreNotFound);
    return { redirect: '/portal/service-accounts' };
  }
}
