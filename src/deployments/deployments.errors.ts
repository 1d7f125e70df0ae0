import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const DeploymentsErrorCode = errorCodes({
  NotFound: ['deployment_not_found', 404],
  /** A hash of `files` is not a file this account uploaded (`missing` lists them all). */
  FilesMissing: ['files_missing', 400],
  /** The files add up to more than 500 MiB. */
  BundleTooLarge: ['bundle_too_large', 400],
  /** Files need an origin of their own: SITES_DOMAIN, or a PUBLIC_URL on localhost. */
  SitesDomainRequired: ['sites_domain_required', 400],
  /** `config.functions`: the entry is missing, is no module, fails to load or has no default `fetch`. */
  FunctionInvalid: ['function_invalid', 400],
});
export type DeploymentsErrorCode = ErrorCode<typeof DeploymentsErrorCode>;

export class DeploymentsError extends PlatformError.of(DeploymentsErrorCode) {
  /** `missing`: every hash the account lacks, each once: upload them (`PUT /v1/files/:sha256`) and deploy again. */
  static filesMissing(missing: string[]): DeploymentsError {
    return new DeploymentsError(
      DeploymentsErrorCode.FilesMissing,
      `${missing.length} of the files are not uploaded to this account: PUT /v1/files/<sha256> each hash of missing, then deploy again`,
      { body: { missing } },
    );
  }

  static bundleTooLarge(bytes: number): DeploymentsError {
    const mib = (bytes / 1024 / 1024).toFixed(1);
    return new DeploymentsError(DeploymentsErrorCode.BundleTooLarge, `The files add up to ${mib} MiB; a deployment holds at most 500 MiB`);
  }

  static sitesDomainRequired(): DeploymentsError {
    return new DeploymentsError(
      DeploymentsErrorCode.SitesDomainRequired,
      'A deployment with files is served on an origin of its own: set SITES_DOMAIN (a wildcard domain such as apps.example.com) on this server, or run it on a localhost PUBLIC_URL',
    );
  }

  /** `message`: the loader's, its first KiB (`InstancePool.validate`). */
  static functionInvalid(entry: string, message: string): DeploymentsError {
    return new DeploymentsError(DeploymentsErrorCode.FunctionInvalid, `config.functions.entry ${entry} did not load: ${message}`, {
      body: { loaderMessage: message },
    });
  }

  static notFound(id: string): DeploymentsError {
    return new DeploymentsError(DeploymentsErrorCode.NotFound, `Deployment ${id} not found`);
  }
}
