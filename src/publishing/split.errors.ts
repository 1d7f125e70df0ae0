import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const SplitErrorCode = errorCodes({
  NotFound: ['split_not_found', 404],
});
export type SplitErrorCode = ErrorCode<typeof SplitErrorCode>;

export class SplitError extends PlatformError.of(SplitErrorCode) {
  static notFound(appId: string): SplitError {
    return new SplitError(SplitErrorCode.NotFound, `App ${appId} has no split test running`);
  }
}
