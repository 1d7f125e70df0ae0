import { Injectable } from '@nestjs/common';
import { PlatformError } from '../common/errors/platform-error.js';
import { AppConfig } from '../config/app-config.js';
import { RECOVER_WINDOW_MS } from '../webhooks/dto/delivery.dto.js';
import { SUCCESS_RATE_DAYS, WebhooksService } from '../webhooks/webhooks.service.js';
import { chrome, Form, PortalAnswer, portalActor, Signed, text } from './portal-page.js';
import { renderPortal } from './portal-pages.js';
import { deliveryRow } from './webhooks/delivery-log.js';

const LIST = { limit: 100 };
/** The delivery log shows the latest deliveries (the API pages through all of them). */
const LOG = { limit: 50 };

const DONE: Record<string, string> = {
  test: 'A webhook.test event is on its way.',
  resent: 'Sent again.',
  busy: 'That delivery is already queued or under way.',
  rotated: 'Secret rotated.',
  enabled: 'Enabled: deliveries go out again.',
  disabled: 'Disabled: no deliveries until you enable it.',
  recovered: 'The failed deliveries of that period are on their way again, oldest first.',
  'recover-disabled': 'Enable the endpoint first: a disabled endpoint gets no deliveries.',
  'recovered-none': 'No delivery of that period had failed: nothing to send again.',
};

/** /portal/webhooks…: endpoints, the signing secret shown once, test sends, the retry schedule, the delivery log, resends and recovery. */
@Injectable()
export class PortalWebhooksPages {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly config: AppConfig,
  ) {}

  /** `rest`: the path after `webhooks` (`''` or `/<endpointId>`); `done`: what the last action did; `rotated`: a new secret, shown once. */
  async get(signed: Signed, rest: string, done?: string, rotated?: string, recoverError?: string): Promise<PortalAnswer> {
    const message = done ? DONE[done] : undefined;
    if (rest === '') return this.listPage(signed);
    const endpointId = rest.slice(1).split('/')[0];
    const [endpoint, deliveries, rates] = await Promise.all([
      this.webhooks.get(signed.accountId, endpointId),
      this.webhooks.listDeliveries(signed.accountId, endpointId, LOG),
      this.webhooks.successRates(signed.accountId, [endpointId]),
    ]);
    const now = Date.now();
    return renderPortal(
      'webhook',
      {
        ...chrome(signed),
        endpoint,
        deliveries: deliveries.data.map((d) => deliveryRow(d, now)),
        more: deliveries.nextCursor !== null,
        logLimit: LOG.limit,
        rate: rates.get(endpointId),
        rateDays: SUCCESS_RATE_DAYS,
        message,
        warning: done === 'recover-disabled' || done === 'busy',
        rotated,
        policy: this.webhooks.deliveryPolicy(),
        recover: { value: minuteInput(now - 24 * 3600_000), min: minuteInput(now - RECOVER_WINDOW_MS + 60_000), max: minuteInput(now), error: recoverError },
        publicUrl: this.config.publicUrl,
      },
      recoverError ? 400 : 200,
    );
  }

  private async listPage(signed: Signed, extra: { created?: unknown; error?: string } = {}, status = 200): Promise<PortalAnswer> {
    const endpoints = (await this.webhooks.list(signed.accountId, LIST)).data;
    const rates = await this.webhooks.successRates(
      signed.accountId,
      endpoints.map((e) => e.id),
    );
    return renderPortal(
      'webhooks',
      {
        ...chrome(signed),
        endpoints: endpoints.map((e) => ({ ...e, rate: rates.get(e.id) })),
        rateDays: SUCCESS_RATE_DAYS,
        publicUrl: this.config.publicUrl,
        ...extra,
      },
      status,
    );
  }

  async post(signed: Signed, rest: string, form: Form): Promise<PortalAnswer> {
    if (rest === '') {
      const events = text(form, 'events', 500)
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean);
      try {
        const created = await this.webhooks.create(signed.accountId, portalActor(signed), {
          url: text(form, 'url', 2048),
          events: events.length ? events : ['*'],
        });
        return await this.listPage(signed, { created });
      } catch (err) {
        if (!(err instanceof PlatformError) || err.status >= 500) throw err;
        return this.listPage(signed, { error: err.message }, 400);
      }
    }
    const [, endpointId, action, deliveryId] = /^\/([^/]+)\/(test|rotate|status|delete|recover|deliveries)(?:\/([^/]+)\/resend)?$/.exec(rest) ?? [];
    if (!endpointId) return { redirect: '/portal/webhooks' };
    if (action === 'rotate') {
      // The new secret is in this answer only (not a redirect).
      const { secret } = await this.webhooks.rotateSecret(signed.accountId, portalActor(signed), endpointId);
      return this.get(signed, `/${endpointId}`, 'rotated', secret);
    }
    if (action === 'status') {
      const status = form.status === 'Disabled' ? 'Disabled' : 'Active';
      await this.webhooks.update(signed.accountId, portalActor(signed), endpointId, { status });
      return { redirect: `/portal/webhooks/${endpointId}?done=${status === 'Active' ? 'enabled' : 'disabled'}` };
    }
    if (action === 'delete') {
      await this.webhooks.delete(signed.accountId, portalActor(signed), endpointId);
      return { redirect: '/portal/webhooks' };
    }
    // Post/redirect/get: reloading the log does not send again.
    if (action === 'recover') {
      const since = recoverySince(text(form, 'since', 40));
      if (typeof since === 'string') return this.get(signed, `/${endpointId}`, undefined, undefined, since);
      try {
        const { queued } = await this.webhooks.recover(signed.accountId, endpointId, since);
        if (queued === 0) return { redirect: `/portal/webhooks/${endpointId}?done=recovered-none` };
      } catch (err) {
        if (err instanceof PlatformError && err.status === 409) return { redirect: `/portal/webhooks/${endpointId}?done=recover-disabled` };
        throw err;
      }
      return { redirect: `/portal/webhooks/${endpointId}?done=recovered` };
    }
    if (action === 'test') {
      await this.webhooks.sendTest(signed.accountId, endpointId);
      return { redirect: `/portal/webhooks/${endpointId}?done=test` };
    }
    try {
      await this.webhooks.retry(signed.accountId, deliveryId);
      return { redirect: `/portal/webhooks/${endpointId}?done=resent` };
    } catch (err) {
      if (err instanceof PlatformError && err.status === 409) return { redirect: `/portal/webhooks/${endpointId}?done=busy` };
      throw err;
    }
  }
}

/** A time as a `datetime-local` input takes it (UTC, to the minute): `2026-11-25T13:02`. */
function minuteInput(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16);
}

/** The recover form's time (`2026-11-25T13:02`, UTC), or what is wrong with it (the API's rule: within 14 days, not ahead). */
function recoverySince(value: string): Date | string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value) || Number.isNaN(Date.parse(`${value}Z`)))
    return 'Give a date and time, like 2026-11-20 08:00 (UTC).';
  const since = new Date(`${value}Z`);
  if (since.getTime() > Date.now()) return 'That time is in the future: choose one within the last 14 days.';
  if (since.getTime() < Date.now() - RECOVER_WINDOW_MS) return 'Failed deliveries are re-sent from the last 14 days only: choose a later time.';
  return since;
}
