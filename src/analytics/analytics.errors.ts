import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const AnalyticsErrorCode = errorCodes({
  InvalidQuery: ['invalid_analytics_query', 400],
  InvalidEvent: ['invalid_analytics_event', 400],
});
export type AnalyticsErrorCode = ErrorCode<typeof AnalyticsErrorCode>;

export class AnalyticsError extends PlatformError.of(AnalyticsErrorCode) {
  static query(message: string): AnalyticsError {
    return new AnalyticsError(AnalyticsErrorCode.InvalidQuery, message);
  }

  static event(message: string): AnalyticsError {
    return new AnalyticsError(AnalyticsErrorCode.InvalidEvent, message);
  }
}
