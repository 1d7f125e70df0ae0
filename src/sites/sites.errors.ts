import { PlatformError } from '../common/errors/platform-error.js';

export enum SitesErrorCode {
  PageNotFound = 'page_not_found',
  Unpublished = 'app_unpublished',
}

export class SitesError extends PlatformError<SitesErrorCode> {
  protected readonly statuses = { [SitesErrorCode.PageNotFound]: 404, [SitesErrorCode.Unpublished]: 410 };

  static pageNotFound(): SitesError {
    return new SitesError(SitesErrorCode.PageNotFound, 'No deployed page here');
  }

  /** The app was published here and taken down. */
  static gone(): SitesError {
    return new SitesError(SitesErrorCode.Unpublished, 'This app is no longer published');
  }
}
