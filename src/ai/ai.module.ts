import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config.js';
import { AiUsage } from './ai-usage.entity.js';
import { AiUsageRepository } from './ai-usage.repository.js';
import { AiUsageService } from './ai-usage.service.js';
import { AiController } from './ai.controller.js';
import { AiService } from './ai.service.js';
import { AI_PROVIDER } from './providers/ai-provider.js';
import { createAiProvider } from './providers/create-provider.js';

/** `POST /v1/ai/generate` and `GET /v1/ai/usage`. AiService is exported for features that generate (landing pages), AiUsageService for analytics and billing. */
@Module({
  imports: [TypeOrmModule.forFeature([AiUsage]), BillingModule],
  controllers: [AiController],
  providers: [AiService, AiUsageRepository, AiUsageService, { provide: AI_PROVIDER, inject: [AppConfig], useFactory: createAiProvider }],
  exports: [AiService, AiUsageService],
})
export class AiModule {}
