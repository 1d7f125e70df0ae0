import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, Matches } from 'class-validator';

export const ENV_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

export class DeployDto {
  /**
   * One of your apps.
   * @example app_01JC3Z8W5Q4M0B7T2K9X1D6F3H
   */
  @IsString()
  @IsNotEmpty()
  appId: string;

  /**
   * Environment name: a lowercase letter, then up to 31 lowercase letters, digits or hyphens.
   * @example production
   */
  @ApiProperty({ pattern: ENV_PATTERN.source })
  @IsString()
  @Matches(ENV_PATTERN, {
    message: 'env must match ^[a-z][a-z0-9-]{0,31}$ (a lowercase letter, then up to 31 lowercase letters, digits or hyphens, e.g. production, staging, pr-42)',
  })
  env: string;
}

export class DeployResultDto {
  @ApiProperty({ enum: ['success'], example: 'success' })
  status: 'success';

  /** @example dep_01JC3Z9A7B2C4D6E8F0G1H2J3K */
  deploymentId: string;

  /**
   * The deployed page, served without authentication.
   * @example http://localhost:3000/sites/dep_01JC3Z9A7B2C4D6E8F0G1H2J3K/
   */
  url: string;

  /** @example app_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
  appId: string;

  /** @example production */
  env: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-11-22T04:21:00.000Z' })
  createdAt: string;
}
