import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const UsersErrorCode = errorCodes({
  NotFound: ['user_not_found', 404],
  EmailTaken: ['email_already_signed_up', 409],
});
export type UsersErrorCode = ErrorCode<typeof UsersErrorCode>;

export class UsersError extends PlatformError.of(UsersErrorCode) {
  static notFound(id: string): UsersError {
    return new UsersError(UsersErrorCode.NotFound, `User ${id} not found`);
  }

  /** Names the app, never the address. */
  static emailTaken(appId: string): UsersError {
    return new UsersError(UsersErrorCode.EmailTaken, `email is already signed up to app ${appId}`);
  }
}
