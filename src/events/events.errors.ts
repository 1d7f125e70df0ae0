import { PlatformError } from '../common/errors/platform-error.js';

export enum EventsErrorCode {
  NotFound = 'event_not_found',
}

export class EventsError extends PlatformError<EventsErrorCode> {
  protected readonly statuses = { [EventsErrorCode.NotFound]: 404 };

  static notFound(id: string): EventsError {
    return new EventsError(EventsErrorCode.NotFound, `Event ${id} not found`);
  }
}
