import { PlatformError } from '../common/errors/platform-error.js';

export enum AnalyticsErrorCode {
  InvalidQuery = 'invalid_analytics_query',
  InvalidEvent = 'invalid_analytics_event',
}

export class AnalyticsError extends PlatformError<AnalyticsErrorCode> {
  protected readonly statuses = {
    [AnalyticsErrorCode.InvalidQuery]: 400,
    [AnalyticsErrorCode.InvalidEvent]: 400,
  };

  static query(message: string): AnalyticsError {
    return new AnalyticsError(AnalyticsErrorCode.InvalidQuery, message);
  }

  static event(message: string): AnalyticsError {
    return new AnalyticsError(AnalyticsErrorCode.InvalidEvent, message);
  }
}
