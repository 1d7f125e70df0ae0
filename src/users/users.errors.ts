import { PlatformError } from '../common/errors/platform-error.js';

export enum UsersErrorCode {
  NotFound = 'user_not_found',
  EmailTaken = 'email_already_signed_up',
}

export class UsersError extends PlatformError<UsersErrorCode> {
  protected readonly statuses = {
    [UsersErrorCode.NotFound]: 404,
    [UsersErrorCode.EmailTaken]: 409,
  };

  static notFound(id: string): UsersError {
    return new UsersError(UsersErrorCode.NotFound, `User ${id} not found`);
  }

  /** Names the app, never the address. */
  static emailTaken(appId: string): UsersError {
    return new UsersError(UsersErrorCode.EmailTaken, `email is already signed up to app ${appId}`);
  }
}
