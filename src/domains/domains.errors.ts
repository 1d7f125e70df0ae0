import { PlatformError } from '../common/errors/platform-error.js';
import type { HostnameProblem } from './hostname.js';

export enum DomainsErrorCode {
  NotFound = 'domain_not_found',
  HostnameInvalid = 'hostname_invalid',
  HostnameIp = 'hostname_ip',
  HostnameLocalhost = 'hostname_localhost',
  HostnameReserved = 'hostname_reserved',
  LimitReached = 'domain_limit_reached',
  Exists = 'domain_exists',
  Taken = 'domain_taken',
  TlsNameUnknown = 'tls_name_unknown',
}

export class DomainsError extends PlatformError<DomainsErrorCode> {
  protected readonly statuses = {
    [DomainsErrorCode.NotFound]: 404,
    [DomainsErrorCode.HostnameInvalid]: 400,
    [DomainsErrorCode.HostnameIp]: 400,
    [DomainsErrorCode.HostnameLocalhost]: 400,
    [DomainsErrorCode.HostnameReserved]: 400,
    [DomainsErrorCode.LimitReached]: 409,
    [DomainsErrorCode.Exists]: 409,
    [DomainsErrorCode.Taken]: 409,
    [DomainsErrorCode.TlsNameUnknown]: 404,
  };

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
