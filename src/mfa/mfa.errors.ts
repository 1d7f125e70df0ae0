import { PlatformError } from '../common/errors/platform-error.js';

export enum MfaErrorCode {
  AlreadyEnrolled = 'mfa_already_enrolled',
  NotStarted = 'mfa_enrolment_not_started',
  WrongCode = 'mfa_code_invalid',
  NotEnrolled = 'mfa_not_enrolled',
}

export class MfaError extends PlatformError<MfaErrorCode> {
  protected readonly statuses = {
    [MfaErrorCode.AlreadyEnrolled]: 409,
    [MfaErrorCode.NotStarted]: 404,
    [MfaErrorCode.WrongCode]: 400,
    [MfaErrorCode.NotEnrolled]: 404,
  };

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
