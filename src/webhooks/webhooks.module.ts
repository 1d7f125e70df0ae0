import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module.js';
import { PeriodicModule } from '../common/periodic/periodic.module.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ServerSecrets } from '../config/server-secrets.js';
import { AttemptRecorder } from './attempt-recorder.js';
import { DeliveryQueue } from './delivery-queue.js';
import { DeliverySweep } from './delivery-sweep.service.js';
import { DeliveryProcessor } from './delivery.processor.js';
import { EndpointHealth } from './endpoint-health.js';
import { SecretBox } from './secret-box.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WebhookFanOut } from './webhook-fan-out.listener.js';
import { WebhookMetrics } from './webhook-metrics.js';
import { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from './webhook.entities.js';
import { WebhookDeliveriesController, WebhookEndpointsController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';

/**
 * Webhooks: endpoints (`WebhooksService`), the fan-out of every domain event into deliveries
 * (`WebhookFanOut`), their queue (`DeliveryQueue`), the signed POST of each try (`DeliveryProcessor`)
 * and the recovery sweep (`DeliverySweep`). See docs/architecture.md, "Follow an event".
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpoint, WebhookDelivery, WebhookAttempt]), BillingModule, PeriodicModule],
  controllers: [WebhookEndpointsController, WebhookDeliveriesController],
  providers: [
    { provide: SecretBox, inject: [ServerSecrets], useFactory: (secrets: ServerSecrets) => new SecretBox(secrets.webhookSecretKey) },
    WebhookEndpointsRepository,
    WebhookDeliveriesRepository,
    DeliveryQueue,
    WebhookMetrics,
    WebhookFanOut,
    EndpointHealth,
    AttemptRecorder,
    DeliveryProcessor,
    DeliverySweep,
    WebhooksService,
  ],
  exports: [WebhooksService],
})
export class WebhooksModule {}
