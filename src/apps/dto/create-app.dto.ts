import { Transform } from 'class-transformer';
import { IsOptional, IsString, Length, MaxLength, ValidateIf } from 'class-validator';

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
}
