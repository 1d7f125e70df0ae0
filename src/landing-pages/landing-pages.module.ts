import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AiModule } from '../ai/ai.module.js';
import { AppsModule } from '../apps/apps.module.js';
import { LandingPageGenerator } from './landing-page-generator.js';
import { LandingPageRow } from './landing-page.entity.js';
import { LandingPagesController } from './landing-pages.controller.js';
import { LandingPagesRepository } from './landing-pages.repository.js';
import { LandingPagesService } from './landing-pages.service.js';

/** Each app's landing page: `GET`/`PUT /v1/apps/:appId/landing-page` and `…/generate` (AI). Deploys snapshot it; src/sites renders it. */
@Module({
  imports: [TypeOrmModule.forFeature([LandingPageRow]), AppsModule, AiModule],
  controllers: [LandingPagesController],
  providers: [LandingPagesRepository, LandingPageGenerator, LandingPagesService],
  exports: [LandingPagesService],
})
export class LandingPagesModule {}
