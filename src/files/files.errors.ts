import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const FilesErrorCode = errorCodes({
  /** The path's hash is not 64 lowercase hex characters. */
  InvalidSha256: ['invalid_sha256', 400],
  /** The body's SHA-256 is not the one the path names. */
  DigestMismatch: ['digest_mismatch', 400],
});
export type FilesErrorCode = ErrorCode<typeof FilesErrorCode>;

export class FilesError extends PlatformError.of(FilesErrorCode) {
  static invalidSha256(): FilesError {
    return new FilesError(FilesErrorCode.InvalidSha256, 'sha256 must be the SHA-256 of the body as 64 lowercase hex characters');
  }

  static digestMismatch(expected: string, actual: string): FilesError {
    return new FilesError(FilesErrorCode.DigestMismatch, `The body's SHA-256 is ${actual}, not ${expected} as the path says: nothing stored`);
  }
}
