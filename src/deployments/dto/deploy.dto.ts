import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, Matches } from 'class-validator';
import { ValidatedByHand } from '../../common/http/validated-by-hand.js';

export const ENV_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

export class SiteRedirectDto {
  /** A path: literal segments, `:name` segments and a final `*`. @example /blog/:slug */
  source: string;

  /** A path or an http(s) URL, using the source's `:name` and `*`. @example /posts/:slug */
  destination: string;

  @ApiProperty({ enum: [301, 302, 307, 308], example: 301 })
  status: 301 | 302 | 307 | 308;
}

export class SiteHeaderRuleDto {
  /** The paths (same patterns as redirects). @example /assets/* */
  source: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { 'Access-Control-Allow-Origin': '*' },
    description: 'Header names to values. Not hop-by-hop headers, Set-Cookie, Content-Length, Content-Encoding or Transfer-Encoding.',
  })
  headers: Record<string, string>;
}

/** The app's server code (docs/functions.md): its entry and the paths it answers. */
export class FunctionsConfigDto {
  /**
   * One of the deployment's files, inside a folder: an ES module (JavaScript or TypeScript) whose default export has
   * `fetch(request, env, ctx)`. Every file of that folder is the function's code and is never served. A deploy whose
   * entry is missing, does not load or has no default `fetch`: 400 `function_invalid` with `loaderMessage`.
   * @example /_server/index.js
   */
  entry: string;

  /**
   * 1–20 paths whose requests (any method) go to the function: literal, or ending in a `/*` segment that matches the
   * rest of the path (`/api/*` matches `/api` too). None may cover `/signup`, `/thanks` or `/_platform/*`.
   * @example ["/api/*"]
   */
  @ApiPropertyOptional({ type: [String], minItems: 1, maxItems: 20, default: ['/api/*'], example: ['/api/*'] })
  routes: string[];
}

/** How the files are served. */
export class SiteConfigDto {
  /** Serve `/about` from `/about.html`. @example false */
  cleanUrls?: boolean;

  /** Answer unknown paths without a file extension with `/index.html` (client-side routing). @example true */
  spa?: boolean;

  @ApiPropertyOptional({ type: [SiteRedirectDto], maxItems: 500 })
  redirects?: SiteRedirectDto[];

  @ApiPropertyOptional({ type: [SiteHeaderRuleDto], maxItems: 100 })
  headers?: SiteHeaderRuleDto[];

  /** Server code run beside the files, on the deployment's origin (routes first, then files). */
  @ApiPropertyOptional({ type: FunctionsConfigDto })
  functions?: FunctionsConfigDto;
}

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

  // Up to 20,000 entries: checked in one pass by the service (manifest.ts), not by class-validator.
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    maxProperties: 20000,
    description:
      "The app's own files: each path (starting with `/`, at most 1,024 bytes, no `.`/`..`/empty segment, backslash or control character; " +
      'not `/signup`, `/thanks` or `/_platform/…`) mapped to the SHA-256 of a file this account uploaded (`PUT /v1/files/:sha256`). ' +
      'At most 20,000 files and 500 MiB. Leave it out to deploy the landing page alone.',
    example: {
      '/index.html': '9d1e7c55a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7',
      '/assets/app.3f9a1c2b.js': '3f9a1c2be0b8d5e4a1f7c6d9b2e3a4f5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1',
    },
  })
  @ValidatedByHand()
  @IsOptional() // (whitelists the field; its value never reaches class-validator)
  files?: Record<string, string>;

  /** How the files are served (with `files` only). */
  @ApiPropertyOptional({ type: SiteConfigDto })
  @ValidatedByHand()
  @IsOptional()
  config?: SiteConfigDto;
}

/** What a deployment's files come to. */
export class DeploymentFilesDto {
  /** @example 14 */
  count: number;

  /** The sum of the files' sizes. @example 482133 */
  bytes: number;
}

export class DeployResultDto {
  @ApiProperty({ enum: ['success'], example: 'success' })
  status: 'success';

  /** @example dep_01JC3Z9A7B2C4D6E8F0G1H2J3K */
  deploymentId: string;

  /**
   * Where it is served, without authentication: `{PUBLIC_URL}/sites/<deploymentId>/` for a landing page alone, the
   * deployment's own origin (`<scheme>://<label>.<SITES_DOMAIN>/`) for one with files.
   * @example http://localhost:3000/sites/dep_01JC3Z9A7B2C4D6E8F0G1H2J3K/
   */
  url: string;

  /** @example app_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
  appId: string;

  /** @example production */
  env: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-11-22T04:21:00.000Z' })
  createdAt: string;

  /** Deployed with files only: how many, how large. */
  @ApiPropertyOptional({ type: DeploymentFilesDto })
  files?: DeploymentFilesDto;

  /** Deployed with files only: how they are served (null without a config). */
  @ApiPropertyOptional({ type: SiteConfigDto, nullable: true })
  config?: SiteConfigDto | null;
}
