import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PeriodicModule } from '../common/periodic/periodic.module.js';
import { DomainEvents } from './domain-events.service.js';
import { EventDispatcher } from './event-dispatcher.js';
import { EventLogController } from './event-log.controller.js';
import { EventLogRepository } from './event-log.repository.js';
import { EventLogService } from './event-log.service.js';
import { OutboxRelay } from './outbox-relay.service.js';
import { StoredEvent } from './stored-event.entity.js';

/**
 * Domain events end to end: raising them into the outbox (`DomainEvents`), dispatching them to
 * the `@OnDomainEvent` listeners after commit (`EventDispatcher`), the relay that dispatches what a
 * crash left (`OutboxRelay`), and the public event log they form (`GET /v1/events`).
 *
 * Global, and imported after DatabaseModule: global modules shut down in reverse order of import,
 * so the dispatcher finishes its work before the database connection closes.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([StoredEvent]), DiscoveryModule, PeriodicModule],
  controllers: [EventLogController],
  providers: [EventLogRepository, DomainEvents, EventDispatcher, OutboxRelay, EventLogService],
  exports: [DomainEvents, EventLogService, EventDispatcher, OutboxRelay],
})
export class EventsModule {}
