import { IsOptional, IsString, MaxLength } from 'class-validator';

export class PublishDto {
  /**
   * The deployment to serve at the public address: any deployment of the app (an older one is a
   * rollback). Default: the newest `production` deployment.
   * @example dep_01JC3Z9A7B2C4D6E8F0G1H2J3K
   */
  @IsOptional()
  @IsString()
  @MaxLength(40)
  deploymentId?: string;
}
