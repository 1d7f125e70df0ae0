import { PlatformError } from '../common/errors/platform-error.js';

export enum SitesErrorCode {
  PageNotFound = 'page_not_found',
}

export class SitesError extends PlatformError<SitesErrorCode> {
  protected readonly statuses = { [SitesErrorCode.PageNotFound]: 404 };

  static pageNotFound(): SitesError {
    return new SitesError(SitesErrorCode.PageNotFound, 'No deployed page here');
  }
}
