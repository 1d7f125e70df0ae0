import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';
import type { HostnameProblem } from './hostname.js';

export const DomainsErrorCode = errorCodes({
  NotFound: ['domain_not_found', 404],
  HostnameInvalid: ['hostname_invalid', 400],
  HostnameIp: ['hostname_ip', 400],
  HostnameLocalhost: ['hostname_localhost', 400],
  HostnameReserved: ['hostname_reserved', 400],
  LimitReached: ['domain_limit_reached', 409],
  Exists: ['domain_exists', 409],
  Taken: ['domain_taken', 409],
  TlsNameUnknown: ['tls_name_unknown', 404],
});
export type DomainsErrorCode = ErrorCode<typeof DomainsErrorCode>;

export class DomainsError extends PlatformError.of(DomainsErrorCode) {
  static notFound(id: string): DomainsError {
    return new DomainsError(DomainsErrorCode.NotFound, `Domain ${id} not found`);
  }

  /** `message` names the hostname and what is wrong with it (see parseHostname). */
  static badHostname(problem: HostnameProblem, message: string): DomainsError {
    return new DomainsError(problem as DomainsErrorCode, message);
  }

  static limitReached(appId: string, limit: number): DomainsError {
    return new DomainsError(DomainsErrorCode.LimitReached, `App ${appId} has ${limit} domains already, the most an app may have; delete one first`);
  }

  static exists(hostname: string): DomainsError {
    return new DomainsError(DomainsErrorCode.Exists, `${hostname} is already one of your domains`);
  }

  static taken(hostname: string): DomainsError {
    return new DomainsError(DomainsErrorCode.Taken, `${hostname} was verified by another account first; it serves their app until they delete it`);
  }

  static tlsNameUnknown(): DomainsError {
    return new DomainsError(DomainsErrorCode.TlsNameUnknown, 'This server serves no site under that name');
  }
}
