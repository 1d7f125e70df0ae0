import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { readOrCreateSecret } from '../config/generated-secrets.js';
import { DeliveryQueue } from './delivery-queue.js';
import { DeliverySweep } from './delivery-sweep.service.js';
import { DeliveryProcessor } from './delivery.processor.js';
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
 * and the recovery sweep (`DeliverySweep`). See README, "Follow an event".
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpoint, WebhookDelivery, WebhookAttempt])],
  controllers: [WebhookEndpointsController, WebhookDeliveriesController],
  providers: [
    { provide: SecretBox, inject: [AppConfig], useFactory: secretBoxOf },
    WebhookEndpointsRepository,
    WebhookDeliveriesRepository,
    DeliveryQueue,
    WebhookMetrics,
    WebhookFanOut,
    DeliveryProcessor,
    DeliverySweep,
    WebhooksService,
  ],
})
export class WebhooksModule {}

/** WEBHOOK_SECRET_KEY, or in the embedded default (where config allows it unset) a key generated into DATA_DIR. */
function secretBoxOf(config: AppConfig): SecretBox {
  if (config.WEBHOOK_SECRET_KEY) return new SecretBox(config.WEBHOOK_SECRET_KEY);
  const { value, file, created } = readOrCreateSecret(config.DATA_DIR, 'webhook-secret-key');
  if (created) new Logger('Webhooks').log(`Generated the key that encrypts webhook signing secrets in ${file} (readable only by this user)`);
  return new SecretBox(value);
}
