import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { newId } from '../common/ids.js';
import { AuditLog } from '../audit/audit-log.service.js';
import type { Actor } from '../common/request-context/actor.js';
import { Page, PageRequest, toPage } from '../common/pagination/page.js';
import { AppConfig } from '../config/app-config.js';
import { formatDuration } from '../config/durations.js';
import { Transactions } from '../database/transactions.js';
import { TEST_EVENT_KIND } from '../events/domain-events.js';
import { EventLogService } from '../events/event-log.service.js';
import { DeliveryQueue } from './delivery-queue.js';
import { RecoveredDto, toDeliveryDto, WebhookDeliveryDto } from './dto/delivery.dto.js';
import { CreatedWebhookEndpointDto, toEndpointDto, WebhookEndpointDto, WebhookSecretDto } from './dto/webhook-endpoint.dto.js';
import { RetrySchedule } from './retry-schedule.js';
import { SecretBox } from './secret-box.js';
import { urlProblem } from './url-guard.js';
import { DeliveryOutcomes, WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WebhookFanOut } from './webhook-fan-out.listener.js';
import { WebhooksError } from './webhooks.errors.js';
import { WebhookDelivery, WebhookEndpoint, WebhookEndpointStatus } from './webhook.entities.js';

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/** The period of an endpoint's success rate (the portal shows it). */
export const SUCCESS_RATE_DAYS = 7;

/** An endpoint's deliveries of the last SUCCESS_RATE_DAYS days: `rate` is the percent of the settled ones that succeeded (null: none settled). */
export interface SuccessRate extends DeliveryOutcomes {
  rate: number | null;
}

/** Jobs queued per round trip by a recover. */
const RECOVER_CHUNK = 1000;

/**
 * `whsec_` and 32 random bytes in standard base64 (44 characters): the Standard Webhooks libraries
 * read the part after `whsec_` as their key. (Secrets made before were URL-safe base64; they sign
 * with the same bytes, see `standardKey`.)
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** What the portal says of retries and disabling, from the settings. */
export interface DeliveryPolicy {
  /** `5 min, 1 h and 24 h after the first failure`. */
  schedule: string;
  /** `5 days`. */
  disableAfter: string;
  /** `10 s`. */
  timeout: string;
}

export interface EndpointChanges {
  url?: string;
  events?: string[];
  description?: string | null;
  status?: WebhookEndpointStatus;
}

/** Endpoint management and the delivery history, as the API shows them. */
@Injectable()
export class WebhooksService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly db: Transactions,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly fanOut: WebhookFanOut,
    private readonly queue: DeliveryQueue,
    private readonly eventLog: EventLogService,
    private readonly config: AppConfig,
    private readonly secrets: SecretBox,
    private readonly audit: AuditLog,
  ) {}

  /** Workers, at start: signing secrets an older version stored in plain are encrypted now. */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.runsWorkers) return;
    const plain = await this.endpoints.withPlainSecrets();
    const seal = (s: string | null) => (s === null || SecretBox.isSealed(s) ? s : this.secrets.seal(s));
    for (const e of plain) await this.endpoints.setSecrets(e.id, seal(e.secret)!, seal(e.previousSecret));
    if (plain.length > 0) this.logger.log(`Encrypted the signing secrets of ${plain.length} webhook endpoint(s) stored in plain`);
  }

  deliveryPolicy(): DeliveryPolicy {
    return {
      schedule: new RetrySchedule(this.config.retryOffsetsMs).describe(),
      disableAfter: formatDuration(this.config.disableAfterMs),
      timeout: formatDuration(this.config.WEBHOOK_TIMEOUT_MS),
    };
  }

  async create(accountId: string, actor: Actor, input: { url: string; events?: string[]; description?: string | null }): Promise<CreatedWebhookEndpointDto> {
    await this.checkUrl(input.url);
    const secret = newWebhookSecret();
    const id = newId('we');
    const endpoint = await this.db.run(async () => {
      await this.audit.record(accountId, actor, 'webhook_endpoint.created', id);
      return this.insert(accountId, id, input, secret);
    });
    return { ...toEndpointDto(endpoint), secret };
  }

  private insert(accountId: string, id: string, input: { url: string; events?: string[]; description?: string | null }, secret: string) {
    return this.endpoints.insert({
      id,
      accountId,
      url: input.url,
      events: dedupe(input.events ?? ['*']),
      description: input.description ?? null,
      status: 'Active',
      secret: this.secrets.seal(secret),
      previousSecret: null,
      previousSecretExpiresAt: null,
    });
  }

  async list(accountId: string, page: PageRequest): Promise<Page<WebhookEndpointDto>> {
    return toPage(await this.endpoints.list(accountId, page), page, toEndpointDto);
  }

  async get(accountId: string, id: string): Promise<WebhookEndpointDto> {
    return toEndpointDto(await this.requireEndpoint(accountId, id));
  }

  async update(accountId: string, actor: Actor, id: string, changes: EndpointChanges): Promise<WebhookEndpointDto> {
    const fields = (['url', 'events', 'description', 'status'] as const).filter((f) => changes[f] !== undefined);
    if (fields.length === 0) throw WebhooksError.nothingToUpdate(['url', 'events', 'description', 'status']);
    if (changes.url !== undefined) await this.checkUrl(changes.url);
    const endpoint = await this.db.run(async () => {
      const row = await this.endpoints.findForUpdate(accountId, id);
      if (!row) throw WebhooksError.endpointNotFound(id);
      if (changes.url !== undefined) row.url = changes.url;
      if (changes.events !== undefined) row.events = dedupe(changes.events);
      if (changes.description !== undefined) row.description = changes.description;
      if (changes.status !== undefined && changes.status !== row.status) {
        // Enabled again: its failure count starts afresh (or it would be disabled again at its next failure).
        row.status = changes.status;
        row.disabledReason = null;
        row.failingSince = null;
      }
      await this.audit.record(accountId, actor, 'webhook_endpoint.updated', id);
      return this.endpoints.save(row);
    });
    return toEndpointDto(endpoint);
  }

  async delete(accountId: string, actor: Actor, id: string): Promise<void> {
    await this.db.run(async () => {
      if (!(await this.endpoints.delete(accountId, id))) throw WebhooksError.endpointNotFound(id);
      await this.audit.record(accountId, actor, 'webhook_endpoint.deleted', id);
    });
  }

  async rotateSecret(accountId: string, actor: Actor, id: string): Promise<WebhookSecretDto> {
    const now = Date.now();
    const secret = newWebhookSecret();
    const endpoint = await this.db.run(async () => {
      const row = await this.endpoints.findForUpdate(accountId, id);
      if (!row) throw WebhooksError.endpointNotFound(id);
      row.previousSecret = row.secret;
      row.previousSecretExpiresAt = new Date(now + ROTATION_OVERLAP_MS);
      row.secret = this.secrets.seal(secret);
      await this.audit.record(accountId, actor, 'webhook_endpoint.secret_rotated', id);
      return this.endpoints.save(row);
    });
    return { secret, previousSecretExpiresAt: endpoint.previousSecretExpiresAt!.toISOString() };
  }

  /** A `webhook.test` event, logged and delivered to this endpoint only. */
  async sendTest(accountId: string, id: string): Promise<WebhookDeliveryDto> {
    const endpoint = await this.requireEndpoint(accountId, id);
    if (endpoint.status !== 'Active') throw WebhooksError.endpointDisabled(id);
    const deliveryId = await this.db.run(async () => {
      const eventId = await this.eventLog.recordHandled(accountId, TEST_EVENT_KIND, { endpointId: endpoint.id, message: 'A test event sent from the API' });
      const [created] = await this.fanOut.deliver(accountId, eventId, [endpoint]);
      return created;
    });
    return this.deliveryDto(accountId, deliveryId);
  }

  async listDeliveries(accountId: string, endpointId: string, page: PageRequest): Promise<Page<WebhookDeliveryDto>> {
    await this.requireEndpoint(accountId, endpointId);
    // One snapshot: a delivery's status and its attempts as of the same moment.
    return this.db.snapshot(async () => {
      const rows = await this.deliveries.listForEndpoint(endpointId, page);
      const shown = rows.slice(0, page.limit);
      const attempts = await this.deliveries.attemptsOf(shown.map((d) => d.id));
      const payloads = await this.eventLog.payloadsOf(shown.map((d) => d.eventId));
      return toPage(rows, page, (d: WebhookDelivery) =>
        toDeliveryDto(
          d,
          payloads.get(d.eventId),
          attempts.filter((a) => a.deliveryId === d.id),
        ),
      );
    });
  }

  /**
   * One more attempt now: of a settled delivery, or of a pending one ahead of its schedule.
   * Refused (409) while an attempt is under way: its outcome would overwrite what this sets.
   */
  async retry(accountId: string, deliveryId: string): Promise<WebhookDeliveryDto> {
    const delivery = await this.deliveries.retryNow(accountId, deliveryId);
    if (!delivery) {
      if (!(await this.deliveries.find(accountId, deliveryId))) throw WebhooksError.deliveryNotFound(deliveryId);
      throw WebhooksError.deliveryInFlight(deliveryId);
    }
    // Due now in the database: if the queue cannot take the job now (503), the sweep queues it later.
    await this.queue.addNow([delivery]);
    return this.deliveryDto(accountId, delivery.id);
  }

  /** Every failed delivery of the endpoint whose event was raised since `since`, attempted again, oldest event first. */
  async recover(accountId: string, endpointId: string, since: Date): Promise<RecoveredDto> {
    const endpoint = await this.requireEndpoint(accountId, endpointId);
    if (endpoint.status !== 'Active') throw WebhooksError.endpointDisabled(endpointId);
    const recovered = await this.deliveries.recoverFailed(endpointId, since);
    for (let i = 0; i < recovered.length; i += RECOVER_CHUNK) await this.queue.addNow(recovered.slice(i, i + RECOVER_CHUNK));
    if (recovered.length > 0) this.logger.log(`Endpoint ${endpointId}: ${recovered.length} failed deliveries since ${since.toISOString()} queued again`);
    return { queued: recovered.length };
  }

  /** The success rate of each endpoint given, over the last SUCCESS_RATE_DAYS days (an endpoint of another account: no deliveries). */
  async successRates(accountId: string, endpointIds: string[]): Promise<Map<string, SuccessRate>> {
    const outcomes = await this.deliveries.outcomesSince(accountId, endpointIds, new Date(Date.now() - SUCCESS_RATE_DAYS * 86_400_000));
    return new Map(
      endpointIds.map((id) => {
        const o = outcomes.get(id) ?? { succeeded: 0, failed: 0, pending: 0 };
        const settled = o.succeeded + o.failed;
        return [id, { ...o, rate: settled === 0 ? null : Math.round((o.succeeded / settled) * 1000) / 10 }];
      }),
    );
  }

  /** The delivery and its attempts as of one moment (an attempt may land while we read). */
  private deliveryDto(accountId: string, deliveryId: string): Promise<WebhookDeliveryDto> {
    return this.db.snapshot(async () => {
      const delivery = await this.deliveries.find(accountId, deliveryId);
      if (!delivery) throw WebhooksError.deliveryNotFound(deliveryId);
      const attempts = await this.deliveries.attemptsOf([delivery.id]);
      const payloads = await this.eventLog.payloadsOf([delivery.eventId]);
      return toDeliveryDto(delivery, payloads.get(delivery.eventId), attempts);
    });
  }

  private async requireEndpoint(accountId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.find(accountId, id);
    if (!endpoint) throw WebhooksError.endpointNotFound(id);
    return endpoint;
  }

  private async checkUrl(url: string): Promise<void> {
    const problem = await urlProblem(url, this.config.WEBHOOK_ALLOW_PRIVATE);
    if (problem) throw WebhooksError.urlRefused(problem);
  }
}

function dedupe(values: string[]): string[] {
  return [...new Set(values)];
}
