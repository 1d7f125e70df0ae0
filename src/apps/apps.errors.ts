import { PlatformError } from '../common/errors/platform-error.js';

export enum AppsErrorCode {
  NotFound = 'app_not_found',
  /** A body or query `appId` that is not one of the caller's apps: a bad parameter, not a missing page. */
  NotYours = 'app_id_not_yours',
  NothingToUpdate = 'nothing_to_update',
  SlugTaken = 'slug_taken',
  NotPublished = 'app_not_published',
}

export class AppsError extends PlatformError<AppsErrorCode> {
  protected readonly statuses = {
    [AppsErrorCode.NotFound]: 404,
    [AppsErrorCode.NotYours]: 400,
    [AppsErrorCode.NothingToUpdate]: 400,
    [AppsErrorCode.SlugTaken]: 409,
    [AppsErrorCode.NotPublished]: 409,
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

  static slugTaken(slug: string): AppsError {
    return new AppsError(AppsErrorCode.SlugTaken, `slug ${JSON.stringify(slug)} is taken; choose another`);
  }

  static notPublished(appId: string): AppsError {
    return new AppsError(AppsErrorCode.NotPublished, `App ${appId} is not published`);
  }
}
