import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const PublishingErrorCode = errorCodes({
  NoDeployment: ['no_deployment_to_publish', 400],
  DeploymentNotOfApp: ['deployment_not_of_app', 400],
});
export type PublishingErrorCode = ErrorCode<typeof PublishingErrorCode>;

export class PublishingError extends PlatformError.of(PublishingErrorCode) {
  static noProductionDeployment(appId: string): PublishingError {
    return new PublishingError(PublishingErrorCode.NoDeployment, `deploymentId is required: app ${appId} has no production deployment to publish by default`);
  }

  static notOfApp(deploymentId: string, appId: string): PublishingError {
    return new PublishingError(PublishingErrorCode.DeploymentNotOfApp, `deploymentId ${JSON.stringify(deploymentId)} is not a deployment of app ${appId}`);
  }
}
