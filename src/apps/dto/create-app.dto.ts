import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Length, Matches, MaxLength, ValidateIf } from 'class-validator';
import { SLUG_MAX, SLUG_MIN, SLUG_PATTERN } from '../slug.js';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CreateAppDto {
  /**
   * Shown on the deployed page; surrounding spaces are trimmed.
   * @example "Recipe Box"
   */
  @Transform(trim)
  @IsString()
  @Length(1, 100, { message: 'name must be 1 to 100 characters long' })
  name: string;

  /**
   * Shown under the name on the deployed page.
   * @example "Share family recipes with the people you cook for."
   */
  @IsOptional()
  @IsString()
  @MaxLength(1000, { message: 'description must be at most 1000 characters long' })
  description?: string | null;

  /**
   * The public address, unique on the server: 3–40 lowercase letters, digits and inner hyphens.
   * Default: made from the name (`Recipe Box` → `recipe-box`, or `recipe-box-2` when taken). Taken: 409.
   * @example recipe-box
   */
  @IsOptional()
  @IsString()
  @Length(SLUG_MIN, SLUG_MAX, { message: `slug must be ${SLUG_MIN} to ${SLUG_MAX} characters long` })
  @Matches(SLUG_PATTERN, { message: 'slug must be lowercase letters, digits and inner hyphens (like recipe-box)' })
  slug?: string;

  /** `public`: listed in the catalogue once published; `unlisted` (default): only at its address. @example public */
  @IsOptional()
  @IsIn(['public', 'unlisted'], { message: 'visibility must be public or unlisted' })
  visibility?: 'public' | 'unlisted';
}

/** Only the fields sent change; `description: null` clears the description. */
export class UpdateAppDto {
  /** @example "Recipe Box Pro" */
  @ValidateIf((o: UpdateAppDto) => o.name !== undefined)
  @Transform(trim)
  @IsString()
  @Length(1, 100, { message: 'name must be 1 to 100 characters long' })
  name?: string;

  /** @example "Now with shopping lists." */
  @IsOptional()
  @IsString()
  @MaxLength(1000, { message: 'description must be at most 1000 characters long' })
  description?: string | null;

  /**
   * The public address, unique on the server: 3–40 lowercase letters, digits and inner hyphens.
   * The old slug keeps redirecting (301) to the new one for 30 days. Taken: 409.
   * @example recipe-box
   */
  @IsOptional()
  @IsString()
  @Length(SLUG_MIN, SLUG_MAX, { message: `slug must be ${SLUG_MIN} to ${SLUG_MAX} characters long` })
  @Matches(SLUG_PATTERN, { message: 'slug must be lowercase letters, digits and inner hyphens (like recipe-box)' })
  slug?: string;

  /** `public`: listed in the catalogue once published; `unlisted` (default): only at its address. @example public */
  @IsOptional()
  @IsIn(['public', 'unlisted'], { message: 'visibility must be public or unlisted' })
  visibility?: 'public' | 'unlisted';
}
