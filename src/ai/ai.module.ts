import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config.js';
import { AiCalls } from './ai-calls.js';
import { AiUsage } from './ai-usage.entity.js';
import { AiUsageRepository } from './ai-usage.repository.js';
import { AiUsageService } from './ai-usage.service.js';
import { AiController } from './ai.controller.js';
import { AiService } from './ai.service.js';
import { ChatCompletions } from './gateway/chat-completions.service.js';
import { Embeddings } from './gateway/embeddings.service.js';
import { GatewayController } from './gateway/gateway.controller.js';
import { AiModels } from './models/ai-models.js';
import { ModelRouter } from './models/model-router.js';

/**
 * `POST /v1/ai/generate`, `GET /v1/ai/usage`, the OpenAI-compatible gateway (`/v1/chat/completions`,
 * `/v1/models`, `/v1/embeddings`) and the models behind them (AI_PROVIDERS_FILE or the single-provider settings). AiService is exported for features that generate (landing pages),
 * AiUsageService for analytics and billing.
 */
@Module({
  imports: [TypeOrmModule.forFeature([AiUsage]), BillingModule],
  controllers: [AiController, GatewayController],
  providers: [
    AiService,
    ChatCompletions,
    Embeddings,
    AiCalls,
    ModelRouter,
    AiUsageRepository,
    AiUsageService,
    // Made once at start from the catalog the configuration checked (a bad AI_PROVIDERS_FILE stops the start before this).
    { provide: AiModels, inject: [AppConfig], useFactory: (config: AppConfig) => AiModels.fromCatalog(config.aiCatalog) },
  ],
  exports: [AiService, AiUsageService],
})
export class AiModule {}
