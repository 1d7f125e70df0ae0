import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { App, SlugRedirect } from './app.entity.js';
import { AppAddresses } from './app-addresses.js';
import { AppErasure } from './app-erasure.js';
import { AppsController } from './apps.controller.js';
import { AppsRepository } from './apps.repository.js';
import { AppsService } from './apps.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([App, SlugRedirect])],
  controllers: [AppsController],
  providers: [AppsRepository, AppsService, AppErasure, AppAddresses],
  exports: [AppsService, AppErasure, AppAddresses],
})
export class AppsModule {}
