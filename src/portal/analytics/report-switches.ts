import { Injectable } from '@nestjs/common';
import { escapeHtml } from '../../mail/mail-html.js';
import { ReportsService, type ReportSwitches } from '../../reports/reports.service.js';
import { type Form, portalPrincipal, type Signed } from '../portal-page.js';

/**
 * The analytics page's "E-mail reports" form: the signed-in member's own weekly and monthly
 * switches of the app, read and saved through ReportsService (the API's GET and PUT
 * /v1/apps/:appId/analytics/reports), so there is one set of rules.
 */
@Injectable()
export class PortalReportSwitches {
  constructor(private readonly reports: ReportsService) {}

  /** The form's HTML for `signed` (404 when the app is not their account's). */
  async fragment(signed: Signed, appId: string, saved = false): Promise<string> {
    return reportSwitchesForm(appId, signed.csrf, await this.reports.switches(portalPrincipal(signed), appId), saved);
  }

  /** Saves the form: a box not ticked is off (a browser sends no field for it). */
  async save(signed: Signed, appId: string, form: Form): Promise<{ redirect: string }> {
    await this.reports.setSwitches(portalPrincipal(signed), appId, { weekly: form.weekly === 'on', monthly: form.monthly === 'on' });
    return { redirect: `${analyticsPath(appId)}?reports=saved` };
  }
}

export function analyticsPath(appId: string): string {
  return `/portal/apps/${encodeURIComponent(appId)}/analytics`;
}

/** The form itself: `form.inline` like the app page's, so it wraps on a phone. */
export function reportSwitchesForm(appId: string, csrf: string, on: ReportSwitches, saved = false): string {
  const box = (kind: keyof ReportSwitches, label: string) =>
    `<label class="check"><input type="checkbox" name="${kind}" value="on"${on[kind] ? ' checked' : ''}> ${label}</label>`;
  return (
    `<form method="post" action="${escapeHtml(analyticsPath(appId))}/reports" class="inline report-switches" aria-label="E-mail reports">` +
    `<input type="hidden" name="_csrf" value="${escapeHtml(csrf)}">` +
    `<span class="hint">E-mail reports:</span> ${box('weekly', 'weekly')} ${box('monthly', 'monthly')} ` +
    `<button type="submit">Save</button>${saved ? ' <span class="hint" role="status">Saved.</span>' : ''}</form>`
  );
}
