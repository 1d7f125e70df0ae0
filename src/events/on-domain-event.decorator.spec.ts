import type { AnyDomainEvent, DomainEvent } from './domain-events.js';
import { DOMAIN_EVENT_LISTENER, OnDomainEvent } from './on-domain-event.decorator.js';

describe('@OnDomainEvent', () => {
  it('types the handler by the event map and records the names it listens to', () => {
    class Listeners {
      @OnDomainEvent('user.created')
      created(event: DomainEvent<'user.created'>): string {
        return event.data.email; // no cast: the payload is typed
      }

      @OnDomainEvent('user.created', 'user.deleted')
      either(event: DomainEvent<'user.created'> | DomainEvent<'user.deleted'>): string {
        return event.name === 'user.created' ? event.data.email : event.data.id;
      }

      @OnDomainEvent('*')
      any(event: AnyDomainEvent): string {
        return event.name;
      }

      // @ts-expect-error a listener of user.created cannot take user.deleted events
      @OnDomainEvent('user.created')
      wrong(event: DomainEvent<'user.deleted'>): string {
        return event.data.id;
      }
    }
    const proto = Listeners.prototype;
    expect(Reflect.getMetadata(DOMAIN_EVENT_LISTENER, proto.created)).toEqual(['user.created']);
    expect(Reflect.getMetadata(DOMAIN_EVENT_LISTENER, proto.either)).toEqual(['user.created', 'user.deleted']);
    expect(Reflect.getMetadata(DOMAIN_EVENT_LISTENER, proto.any)).toEqual(['*']);
  });
});
