import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const MfaErrorCode = errorCodes({
  AlreadyEnrolled: ['mfa_already_enrolled', 409],
  NotStarted: ['mfa_enrolment_not_started', 404],
  WrongCode: ['mfa_code_invalid', 400],
  NotEnrolled: ['mfa_not_enrolled', 404],
});
export type MfaErrorCode = ErrorCode<typeof MfaErrorCode>;

export class MfaError extends PlatformError.of(MfaErrorCode) {
  static alreadyEnrolled(): MfaError {
    return new MfaError(MfaErrorCode.AlreadyEnrolled, 'Two-factor sign-in is on already: turn it off first to enrol another device');
  }

  static notStarted(): MfaError {
    return new MfaError(MfaErrorCode.NotStarted, 'No enrolment is waiting for a code: start again');
  }

  static wrongCode(): MfaError {
    return new MfaError(MfaErrorCode.WrongCode, 'That code is not valid (a code works once, within 30 seconds of its time)');
  }

  static notEnrolled(): MfaError {
    return new MfaError(MfaErrorCode.NotEnrolled, 'Two-factor sign-in is not on for this member');
  }
}
