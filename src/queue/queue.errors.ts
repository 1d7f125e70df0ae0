import { PlatformError } from '../common/errors/platform-error.js';

export enum QueueErrorCode {
  Unavailable = 'queue_unavailable',
}

export class QueueError extends PlatformError<QueueErrorCode> {
  protected readonly statuses = { [QueueErrorCode.Unavailable]: 503 };

  static unavailable(): QueueError {
    return new QueueError(QueueErrorCode.Unavailable, 'The job queue (Redis) is unreachable right now; try again shortly');
  }
}
