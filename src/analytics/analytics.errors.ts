import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const AnalyticsErrorCode = errorCodes({
  InvalidQuery: ['invalid_analytics_query', 400],
  InvalidEvent: ['invalid_analytics_event', 400],
  GoalNotFound: ['goal_not_found', 404],
  GoalExists: ['goal_exists', 409],
  GoalLimitReached: ['goal_limit_reached', 409],
  ShareNotFound: ['share_not_found', 404],
  ShareLimitReached: ['share_limit_reached', 409],
});
export type AnalyticsErrorCode = ErrorCode<typeof AnalyticsErrorCode>;

export class AnalyticsError extends PlatformError.of(AnalyticsErrorCode) {
  static query(message: string): AnalyticsError {
    return new AnalyticsError(AnalyticsErrorCode.InvalidQuery, message);
  }

  static event(message: string): AnalyticsError {
    return new AnalyticsError(AnalyticsErrorCode.InvalidEvent, message);
  }

  static goalNotFound(id: string): AnalyticsError {
    return new AnalyticsError(AnalyticsErrorCode.GoalNotFound, `Goal ${id} not found`);
  }

  static goalExists(name: string): AnalyticsError {
    return new AnalyticsError(AnalyticsErrorCode.GoalExists, `The app has a goal "${name}" already`);
  }

  static goalLimitReached(appId: string, limit: number): AnalyticsError {
    return new AnalyticsError(AnalyticsErrorCode.GoalLimitReached, `App ${appId} has ${limit} goals already, the most an app may have; delete one first`);
  }

  static shareNotFound(id: string): AnalyticsError {
    return new AnalyticsError(AnalyticsErrorCode.ShareNotFound, `Share ${id} not found`);
  }

  static shareLimitReached(appId: string, limit: number): AnalyticsError {
    return new AnalyticsError(
      AnalyticsErrorCode.ShareLimitReached,
      `App ${appId} has ${limit} shared links already, the most an app may have; delete one first`,
    );
  }
}
