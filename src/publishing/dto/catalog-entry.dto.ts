import { ApiProperty } from '@nestjs/swagger';
import { PageOf } from '../../common/pagination/page-of.js';

/** One app of the catalogue: what a visitor needs to find it, nothing about its owner. */
export class CatalogEntryDto {
  /** @example recipe-box */
  slug: string;
  /** @example "Recipe Box" */
  name: string;
  /** @example "Share family recipes with the people you cook for." */
  description: string | null;
  /** @example https://recipe-box.example-apps.com/ */
  publicUrl: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2025-11-22T04:30:00.000Z' })
  publishedAt: string;
}

export class CatalogPageDto extends PageOf(CatalogEntryDto) {}
