import { PlatformError } from '../common/errors/platform-error.js';

export enum AppsErrorCode {
  NotFound = 'app_not_found',
  /** A body or query `appId` that is not one of the caller's apps: a bad parameter, not a missing page. */
  NotYours = 'app_id_not_yours',
  NothingToUpdate = 'nothing_to_update',
}

export class AppsError extends PlatformError<AppsErrorCode> {
  protected readonly statuses = {
    [AppsErrorCode.NotFound]: 404,
    [AppsErrorCode.NotYours]: 400,
    [AppsErrorCode.NothingToUpdate]: 400,
  };

  static notFound(appId: string): AppsError {
    return new AppsError(AppsErrorCode.NotFound, `App ${appId} not found`);
  }

  static notYours(appId: string): AppsError {
    return new AppsError(AppsErrorCode.NotYours, `appId ${JSON.stringify(appId)} is not one of your apps`);
  }

  static nothingToUpdate(fields: string[]): AppsError {
    return new AppsError(AppsErrorCode.NothingToUpdate, `Send at least one of ${fields.join(', ')}`);
  }
}
