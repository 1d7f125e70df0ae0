import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageOf } from '../../common/pagination/page-of.js';
import { LandingPageDto } from '../../landing-pages/dto/landing-page.dto.js';
import { DeployResultDto } from './deploy.dto.js';

/** The app as it was when deployed. */
export class DeploymentSnapshotDto {
  /** @example "Recipe Box" */
  name: string;

  /** @example "Share family recipes with the people you cook for." */
  description: string | null;

  /** The landing page the deployment serves (for deployments made before landing pages: the default page of the app as it was). */
  @ApiProperty({ type: LandingPageDto })
  landingPage: LandingPageDto;
}

export class DeploymentDto extends DeployResultDto {
  @ApiProperty({ type: DeploymentSnapshotDto })
  snapshot: DeploymentSnapshotDto;

  /**
   * With server code (`config.functions`): the names of the environment variables it took when it was deployed
   * (values never shown). @example ["API_BASE", "STRIPE_KEY"]
   */
  @ApiPropertyOptional({ type: [String], example: ['API_BASE', 'STRIPE_KEY'] })
  variables?: string[];
}

export class DeploymentPageDto extends PageOf(DeploymentDto) {}
