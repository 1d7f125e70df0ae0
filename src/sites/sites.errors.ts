import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const SitesErrorCode = errorCodes({
  PageNotFound: ['page_not_found', 404],
  Unpublished: ['app_unpublished', 410],
});
export type SitesErrorCode = ErrorCode<typeof SitesErrorCode>;

export class SitesError extends PlatformError.of(SitesErrorCode) {
  static pageNotFound(): SitesError {
    return new SitesError(SitesErrorCode.PageNotFound, 'No deployed page here');
  }

  /** The app was published here and taken down. */
  static gone(): SitesError {
    return new SitesError(SitesErrorCode.Unpublished, 'This app is no longer published');
  }
}
