import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const QueueErrorCode = errorCodes({
  Unavailable: ['queue_unavailable', 503],
});
export type QueueErrorCode = ErrorCode<typeof QueueErrorCode>;

export class QueueError extends PlatformError.of(QueueErrorCode) {
  static unavailable(): QueueError {
    return new QueueError(QueueErrorCode.Unavailable, 'The job queue (Redis) is unreachable right now; try again shortly');
  }
}
