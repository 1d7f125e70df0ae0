import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config.js';
import { SecretBox } from './secret-box.js';
import { WebhookDeliveriesService } from './webhook-deliveries.service.js';
import { WebhookMetrics } from './webhook-metrics.js';
import { WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookEvent } from './webhook.entities.js';
import { EventsController, WebhookDeliveriesController, WebhookEndpointsController } from './webhooks.controller.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';

/** Endpoints, the event log, and signed delivery through the `webhooks` queue (see README). */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpoint, WebhookEvent, WebhookDelivery, WebhookAttempt])],
  controllers: [WebhookEndpointsController, WebhookDeliveriesController, EventsController],
  providers: [
    { provide: SecretBox, inject: [AppConfig], useFactory: (config: AppConfig) => new SecretBox(config.WEBHOOK_SECRET_KEY) },
    WebhooksRepository,
    WebhookMetrics,
    WebhookDeliveriesService,
    WebhooksService,
  ],
})
export class WebhooksModule {}
