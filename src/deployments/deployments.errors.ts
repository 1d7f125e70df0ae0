import { PlatformError } from '../common/errors/platform-error.js';

export enum DeploymentsErrorCode {
  NotFound = 'deployment_not_found',
}

export class DeploymentsError extends PlatformError<DeploymentsErrorCode> {
  protected readonly statuses = { [DeploymentsErrorCode.NotFound]: 404 };

  static notFound(id: string): DeploymentsError {
    return new DeploymentsError(DeploymentsErrorCode.NotFound, `Deployment ${id} not found`);
  }
}
