import { ApiProperty } from '@nestjs/swagger';
import { PageOf } from '../../common/pagination/page-of.js';
import type { App } from '../app.entity.js';

export class AppDto {
  /** @example app_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
  appId: string;

  /** @example "Recipe Box" */
  name: string;

  /** @example "Share family recipes with the people you cook for." */
  description: string | null;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-11-22T04:20:00.000Z' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-11-22T04:20:00.000Z' })
  updatedAt: string;
}

export class AppPageDto extends PageOf(AppDto) {}

export function toAppDto(app: App): AppDto {
  return {
    appId: app.id,
    name: app.name,
    description: app.description,
    createdAt: app.createdAt.toISOString(),
    updatedAt: app.updatedAt.toISOString(),
  };
}
