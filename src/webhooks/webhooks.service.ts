import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { newId } from '../common/ids.js';
import { Page, PageRequest, toPage } from '../common/pagination/pagination.js';
import { AppConfig } from '../config/app-config.js';
import { toDeliveryDto, WebhookDeliveryDto } from './dto/delivery.dto.js';
import { EventDto, toEventDto } from './dto/event.dto.js';
import { CreatedWebhookEndpointDto, toEndpointDto, WebhookEndpointDto, WebhookSecretDto } from './dto/webhook-endpoint.dto.js';
import { TEST_EVENT } from './event-kinds.js';
import { SecretBox } from './secret-box.js';
import { urlProblem } from './url-guard.js';
import { EVENT_RETENTION_MS, MAX_ATTEMPTS, WebhookDeliveriesService } from './webhook-deliveries.service.js';
import { WebhookDelivery, WebhookEndpoint, WebhookEndpointStatus } from './webhook.entities.js';
import { WebhooksRepository } from './webhooks.repository.js';

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export interface EndpointChanges {
  url?: string;
  events?: string[];
  description?: string | null;
  status?: WebhookEndpointStatus;
}

/** Endpoint management, the event log, and the delivery history as the API shows them. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repo: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesService,
    private readonly config: AppConfig,
    private readonly secrets: SecretBox,
  ) {}

  async create(accountId: string, input: { url: string; events?: string[]; description?: string | null }): Promise<CreatedWebhookEndpointDto> {
    await this.checkUrl(input.url);
    const secret = newWebhookSecret();
    const endpoint = await this.repo.insertEndpoint({
      id: newId('we'),
      accountId,
      url: input.url,
      events: dedupe(input.events ?? ['*']),
      description: input.description ?? null,
      status: 'Active',
      secret: this.secrets.seal(secret),
      previousSecret: null,
      previousSecretExpiresAt: null,
    });
    return { ...toEndpointDto(endpoint), secret };
  }

  async list(accountId: string, page: PageRequest): Promise<Page<WebhookEndpointDto>> {
    return toPage(await this.repo.listEndpoints(accountId, page), page, toEndpointDto);
  }

  async get(accountId: string, id: string): Promise<WebhookEndpointDto> {
    return toEndpointDto(await this.requireEndpoint(accountId, id));
  }

  async update(accountId: string, id: string, changes: EndpointChanges): Promise<WebhookEndpointDto> {
    const fields = (['url', 'events', 'description', 'status'] as const).filter((f) => changes[f] !== undefined);
    if (fields.length === 0) throw new BadRequestException('Send at least one of url, events, description, status');
    if (changes.url !== undefined) await this.checkUrl(changes.url);
    const endpoint = await this.dataSource.transaction(async (m) => {
      const row = await this.repo.findEndpointForUpdate(m, accountId, id);
      if (!row) throw endpointNotFound(id);
      if (changes.url !== undefined) row.url = changes.url;
      if (changes.events !== undefined) row.events = dedupe(changes.events);
      if (changes.description !== undefined) row.description = changes.description;
      if (changes.status !== undefined) row.status = changes.status;
      return this.repo.saveEndpoint(m, row);
    });
    return toEndpointDto(endpoint);
  }

  async delete(accountId: string, id: string): Promise<void> {
    if (!(await this.repo.deleteEndpoint(accountId, id))) throw endpointNotFound(id);
  }

  async rotateSecret(accountId: string, id: string): Promise<WebhookSecretDto> {
    const now = Date.now();
    const secret = newWebhookSecret();
    const endpoint = await this.dataSource.transaction(async (m) => {
      const row = await this.repo.findEndpointForUpdate(m, accountId, id);
      if (!row) throw endpointNotFound(id);
      row.previousSecret = row.secret;
      row.previousSecretExpiresAt = new Date(now + ROTATION_OVERLAP_MS);
      row.secret = this.secrets.seal(secret);
      return this.repo.saveEndpoint(m, row);
    });
    return { secret, previousSecretExpiresAt: endpoint.previousSecretExpiresAt!.toISOString() };
  }

  /** A `webhook.test` event, delivered to this endpoint only. */
  async sendTest(accountId: string, id: string): Promise<WebhookDeliveryDto> {
    const endpoint = await this.requireEndpoint(accountId, id);
    if (endpoint.status !== 'Active') throw new ConflictException(`Webhook endpoint ${id} is Disabled; set status Active first`);
    const { deliveryIds } = await this.deliveries.record(
      accountId,
      TEST_EVENT,
      { endpointId: endpoint.id, message: 'A test event sent from the API' },
      new Date(),
      endpoint,
    );
    return this.deliveryDto(accountId, deliveryIds[0]);
  }

  async listDeliveries(accountId: string, endpointId: string, page: PageRequest): Promise<Page<WebhookDeliveryDto>> {
    await this.requireEndpoint(accountId, endpointId);
    const rows = await this.repo.listDeliveries(endpointId, page);
    const shown = rows.slice(0, page.limit);
    const [attempts, events] = await Promise.all([this.repo.attemptsOf(shown.map((d) => d.id)), this.repo.kindsOf(shown.map((d) => d.eventId))]);
    const kinds = new Map(events.map((e) => [e.id, e.kind]));
    return toPage(rows, page, (d: WebhookDelivery) => toDeliveryDto(d, kinds.get(d.eventId) ?? '', attempts.filter((a) => a.deliveryId === d.id)));
  }

  /**
   * Queues one more attempt now. Refused (409) while an attempt is queued or under way: the queue
   * would ignore a second job under the same id, and a last attempt that then failed would
   * overwrite the `pending` this sets — the retry would be lost without a word.
   */
  async retry(accountId: string, deliveryId: string): Promise<WebhookDeliveryDto> {
    const delivery = await this.repo.findDelivery(accountId, deliveryId);
    if (!delivery) throw new NotFoundException(`No webhook delivery ${deliveryId}`);
    if (await this.deliveries.isQueued(delivery.id)) {
      throw new ConflictException(`Webhook delivery ${deliveryId} already has an attempt queued or under way; retry once it has settled`);
    }
    await this.repo.setPending(this.dataSource.manager, delivery.id);
    await this.deliveries.enqueue(delivery.id, delivery.status === 'pending' ? Math.max(1, MAX_ATTEMPTS - delivery.attemptCount) : 1);
    return this.deliveryDto(accountId, delivery.id);
  }

  async listEvents(accountId: string, kind: string | undefined, page: PageRequest): Promise<Page<EventDto>> {
    return toPage(await this.repo.listEvents(accountId, kind, retentionStart(), page), page, toEventDto);
  }

  async getEvent(accountId: string, id: string): Promise<EventDto> {
    const event = await this.repo.findEvent(accountId, id, retentionStart());
    if (!event) throw new NotFoundException(`No event ${id}`);
    return toEventDto(event);
  }

  private async deliveryDto(accountId: string, deliveryId: string): Promise<WebhookDeliveryDto> {
    const delivery = await this.repo.findDelivery(accountId, deliveryId);
    if (!delivery) throw new NotFoundException(`No webhook delivery ${deliveryId}`);
    const [attempts, events] = await Promise.all([this.repo.attemptsOf([delivery.id]), this.repo.kindsOf([delivery.eventId])]);
    return toDeliveryDto(delivery, events[0]?.kind ?? '', attempts);
  }

  private async requireEndpoint(accountId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.repo.findEndpoint(accountId, id);
    if (!endpoint) throw endpointNotFound(id);
    return endpoint;
  }

  private async checkUrl(url: string): Promise<void> {
    const problem = await urlProblem(url, this.config.WEBHOOK_ALLOW_PRIVATE);
    if (problem) throw new BadRequestException(problem);
  }
}

function endpointNotFound(id: string): NotFoundException {
  return new NotFoundException(`No webhook endpoint ${id}`);
}

function retentionStart(): Date {
  return new Date(Date.now() - EVENT_RETENTION_MS);
}

function dedupe(values: string[]): string[] {
  return [...new Set(values)];
}
