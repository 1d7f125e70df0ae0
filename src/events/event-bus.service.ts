import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter2, OnEvent } from '@nestjs/event-emitter';
import { DomainEvent, DomainEventMap, DomainEventName } from './domain-events.js';

/**
 * Typed facade over the internal event emitter. Services call `publish` after their write
 * has committed; it resolves once every listener has (so an event is recorded before the
 * response goes out), and a failing listener is logged, never thrown at the caller.
 */
@Injectable()
export class EventBus {
  private readonly logger = new Logger('EventBus');

  constructor(private readonly emitter: EventEmitter2) {}

  async publish<K extends DomainEventName>(name: K, accountId: string, data: DomainEventMap[K]): Promise<void> {
    const event: DomainEvent<K> = { name, accountId, data, occurredAt: new Date() };
    try {
      await this.emitter.emitAsync(name, event);
    } catch (err) {
      this.logger.error({ err }, `A listener of ${name} failed`);
    }
  }
}

/** `@OnDomainEvent('user.created')`: a listener typed by the event map. Use `'**'` for every event. */
export const OnDomainEvent = (name: DomainEventName | DomainEventName[] | '**') => OnEvent(name);
