import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const EventsErrorCode = errorCodes({
  NotFound: ['event_not_found', 404],
});
export type EventsErrorCode = ErrorCode<typeof EventsErrorCode>;

export class EventsError extends PlatformError.of(EventsErrorCode) {
  static notFound(id: string): EventsError {
    return new EventsError(EventsErrorCode.NotFound, `Event ${id} not found`);
  }
}
