import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString } from 'class-validator';

export class SetEnvVarDto {
  /** The value: at most 64 KiB (UTF-8). A secret's is never shown again. @example sk_live_51H… */
  @IsString()
  value: string;

  /** A secret: sealed at rest, its value never shown by any route, page, log or event. Default false. @example true */
  @IsOptional()
  @IsBoolean()
  secret?: boolean;
}

export class EnvVarDto {
  /** @example STRIPE_KEY */
  name: string;

  /** @example false */
  secret: boolean;

  /** A plain variable's value; absent for a secret. @example https://api.example.com */
  @ApiPropertyOptional()
  value?: string;

  /** @example 2026-11-29T10:00:00.000Z */
  updatedAt: string;
}

export class EnvVarListDto {
  @ApiProperty({ type: [EnvVarDto] })
  data: EnvVarDto[];
}
