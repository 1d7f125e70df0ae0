import { PlatformError } from '../common/errors/platform-error.js';

export enum PublishingErrorCode {
  NoDeployment = 'no_deployment_to_publish',
  DeploymentNotOfApp = 'deployment_not_of_app',
}

export class PublishingError extends PlatformError<PublishingErrorCode> {
  protected readonly statuses = {
    [PublishingErrorCode.NoDeployment]: 400,
    [PublishingErrorCode.DeploymentNotOfApp]: 400,
  };

  static noProductionDeployment(appId: string): PublishingError {
    return new PublishingError(PublishingErrorCode.NoDeployment, `deploymentId is required: app ${appId} has no production deployment to publish by default`);
  }

  static notOfApp(deploymentId: string, appId: string): PublishingError {
    return new PublishingError(PublishingErrorCode.DeploymentNotOfApp, `deploymentId ${JSON.stringify(deploymentId)} is not a deployment of app ${appId}`);
  }
}
