import { Module } from '@nestjs/common';
import { VisitorIds } from './visitor-ids.service.js';
import { VisitorSaltsRepository } from './visitor-salts.repository.js';

/** Privacy-first analytics. For now: cookieless visitor ids (daily salts), also used by the sign-up form's rate limit. */
@Module({
  providers: [VisitorSaltsRepository, VisitorIds],
  exports: [VisitorIds],
})
export class AnalyticsModule {}
