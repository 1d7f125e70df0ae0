import { ApiProperty } from '@nestjs/swagger';
import { PageOf } from '../../common/pagination/page-of.js';
import type { App, AppVisibility, PublishState } from '../app.entity.js';

export class AppDto {
  /** @example app_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
  appId: string;

  /** @example "Recipe Box" */
  name: string;

  /** @example "Share family recipes with the people you cook for." */
  description: string | null;

  /** The app's public address, unique on the server: `/p/<slug>/` (and `<slug>.<SITES_DOMAIN>`). @example recipe-box */
  slug: string;

  /** `public` apps appear in the catalogue once published; `unlisted` ones only at their address. */
  @ApiProperty({ enum: ['public', 'unlisted'], example: 'public' })
  visibility: AppVisibility;

  @ApiProperty({ enum: ['draft', 'published', 'unpublished'], example: 'published' })
  publishState: PublishState;

  /** The deployment the public address serves (null unless published). @example dep_01JC3Z9A7B2C4D6E8F0G1H2J3K */
  @ApiProperty({ type: String, nullable: true, example: 'dep_01JC3Z9A7B2C4D6E8F0G1H2J3K' })
  publishedDeploymentId: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2025-11-22T04:30:00.000Z' })
  publishedAt: string | null;

  /** Where the published app is served (null unless published). @example https://recipe-box.apps.example.com/ */
  @ApiProperty({ type: String, nullable: true, example: 'http://localhost:3000/p/recipe-box/' })
  publicUrl: string | null;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-11-22T04:20:00.000Z' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-11-22T04:20:00.000Z' })
  updatedAt: string;
}

export class AppPageDto extends PageOf(AppDto) {}

/** An app as the API shows it; `publicUrl` is where it is served when published. */
export function toAppDto(app: App, publicUrl: (slug: string) => string): AppDto {
  const published = app.publishState === 'published';
  return {
    appId: app.id,
    name: app.name,
    description: app.description,
    slug: app.slug,
    visibility: app.visibility,
    publishState: app.publishState,
    publishedDeploymentId: published ? app.publishedDeploymentId : null,
    publishedAt: published && app.publishedAt ? app.publishedAt.toISOString() : null,
    publicUrl: published ? publicUrl(app.slug) : null,
    createdAt: app.createdAt.toISOString(),
    updatedAt: app.updatedAt.toISOString(),
  };
}
