import { Injectable } from '@nestjs/common';
import { PlatformError } from '../common/errors/platform-error.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';
import { Form, PortalAnswer, portalActor, Signed, text } from './portal-page.js';
import { renderPortal } from './portal-pages.js';

const LIST = { limit: 100 };

const DONE: Record<string, string> = {
  test: 'A webhook.test event is on its way.',
  resent: 'Sent again.',
  busy: 'That delivery is already queued or under way.',
  rotated: 'Secret rotated.',
  enabled: 'Enabled: deliveries go out again.',
  disabled: 'Disabled: no deliveries until you enable it.',
  recovered: 'The failed deliveries of that period are on their way again, oldest first.',
  'recover-disabled': 'Enable the endpoint first: a disabled endpoint gets no deliveries.',
};

/** The periods the portal offers to recover, in hours (the API takes any time within 14 days). */
const RECOVER_HOURS = [1, 6, 24, 72, 168, 336];

/** /portal/webhooks…: endpoints, the signing secret shown once, test sends, the retry schedule, the delivery log, resends and recovery. */
@Injectable()
export class PortalWebhooksPages {
  constructor(private readonly webhooks: WebhooksService) {}

  async get(signed: Signed, rest: string, done?: string, rotated?: string): Promise<PortalAnswer> {
    const message = done ? DONE[done] : undefined;
    if (rest === '') return renderPortal('webhooks', { csrf: signed.csrf, endpoints: (await this.webhooks.list(signed.accountId, LIST)).data });
    const endpointId = rest.slice(1).split('/')[0];
    const [endpoint, deliveries] = await Promise.all([
      this.webhooks.get(signed.accountId, endpointId),
      this.webhooks.listDeliveries(signed.accountId, endpointId, LIST),
    ]);
    return renderPortal('webhook', {
      csrf: signed.csrf,
      endpoint,
      deliveries: deliveries.data,
      message,
      rotated,
      policy: this.webhooks.deliveryPolicy(),
      recoverHours: RECOVER_HOURS,
    });
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
        const page = renderPortal('webhooks', { csrf: signed.csrf, endpoints: (await this.webhooks.list(signed.accountId, LIST)).data, created });
        return page;
      } catch (err) {
        if (!(err instanceof PlatformError) || err.status >= 500) throw err;
        return {
          ...renderPortal('webhooks', { csrf: signed.csrf, endpoints: (await this.webhooks.list(signed.accountId, LIST)).data, error: err.message }),
          status: 400,
        };
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
      const hours = RECOVER_HOURS.includes(Number(form.hours)) ? Number(form.hours) : 24;
      try {
        await this.webhooks.recover(signed.accountId, endpointId, new Date(Date.now() - hours * 3600_000));
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
