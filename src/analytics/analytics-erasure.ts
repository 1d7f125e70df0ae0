import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppErasure, AppErasureParticipant } from '../apps/app-erasure.js';
import { AnalyticsEventsRepository } from './analytics-events.repository.js';

/** An app's analytics go with the app, in the transaction that deletes it (the analytics tables hold no foreign key to apps). */
@Injectable()
export class AnalyticsErasure implements AppErasureParticipant, OnModuleInit {
  constructor(
    private readonly erasure: AppErasure,
    private readonly events: AnalyticsEventsRepository,
  ) {}

  onModuleInit(): void {
    this.erasure.register(this);
  }

  eraseApp(_accountId: string, appId: string): Promise<void> {
    return this.events.eraseApp(appId);
  }
}
