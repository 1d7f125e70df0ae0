import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const EnvVarsErrorCode = errorCodes({
  NotFound: ['env_var_not_found', 404],
});
export type EnvVarsErrorCode = ErrorCode<typeof EnvVarsErrorCode>;

export class EnvVarsError extends PlatformError.of(EnvVarsErrorCode) {
  static notFound(env: string, name: string): EnvVarsError {
    return new EnvVarsError(EnvVarsErrorCode.NotFound, `Variable ${name} not found in environment ${env}`);
  }
}
