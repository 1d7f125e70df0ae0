import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const AppsErrorCode = errorCodes({
  NotFound: ['app_not_found', 404],
  /** A body or query `appId` that is not one of the caller's apps: a bad parameter, not a missing page. */
  NotYours: ['app_id_not_yours', 400],
  NothingToUpdate: ['nothing_to_update', 400],
  SlugTaken: ['slug_taken', 409],
  /** The platform keeps it: the first label of its own address. */
  SlugReserved: ['slug_reserved', 409],
  NotPublished: ['app_not_published', 409],
});
export type AppsErrorCode = ErrorCode<typeof AppsErrorCode>;

export class AppsError extends PlatformError.of(AppsErrorCode) {
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

  static slugReserved(slug: string): AppsError {
    return new AppsError(AppsErrorCode.SlugReserved, `slug ${JSON.stringify(slug)} is the platform's own (its address's first label); choose another`);
  }

  static notPublished(appId: string): AppsError {
    return new AppsError(AppsErrorCode.NotPublished, `App ${appId} is not published`);
  }
}
