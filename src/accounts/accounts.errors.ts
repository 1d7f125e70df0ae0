import { PlatformError } from '../common/errors/platform-error.js';

export enum AccountsErrorCode {
  EmailTaken = 'account_email_taken',
  NotFound = 'account_not_found',
}

export class AccountsError extends PlatformError<AccountsErrorCode> {
  protected readonly statuses = {
    [AccountsErrorCode.EmailTaken]: 409,
    [AccountsErrorCode.NotFound]: 404,
  };

  /** Never the address: error bodies end up in logs. */
  static emailTaken(): AccountsError {
    return new AccountsError(AccountsErrorCode.EmailTaken, 'An account with this email already exists');
  }

  static notFound(id: string): AccountsError {
    return new AccountsError(AccountsErrorCode.NotFound, `Account ${id} not found`);
  }
}
