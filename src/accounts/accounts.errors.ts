import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const AccountsErrorCode = errorCodes({
  EmailTaken: ['account_email_taken', 409],
  NotFound: ['account_not_found', 404],
});
export type AccountsErrorCode = ErrorCode<typeof AccountsErrorCode>;

export class AccountsError extends PlatformError.of(AccountsErrorCode) {
  /** Never the address: error bodies end up in logs. */
  static emailTaken(): AccountsError {
    return new AccountsError(AccountsErrorCode.EmailTaken, 'An account with this email already exists');
  }

  static notFound(id: string): AccountsError {
    return new AccountsError(AccountsErrorCode.NotFound, `Account ${id} not found`);
  }
}
