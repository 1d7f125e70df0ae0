import { ApiProperty } from '@nestjs/swagger';
import { PageOf } from '../../common/pagination/page-of.js';
import { DeployResultDto } from './deploy.dto.js';

/** The app as it was when deployed. */
export class DeploymentSnapshotDto {
  /** @example "Recipe Box" */
  name: string;

  /** @example "Share family recipes with the people you cook for." */
  description: string | null;
}

export class DeploymentDto extends DeployResultDto {
  @ApiProperty({ type: DeploymentSnapshotDto })
  snapshot: DeploymentSnapshotDto;
}

export class DeploymentPageDto extends PageOf(DeploymentDto) {}
