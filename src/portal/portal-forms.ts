import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { validationProblems } from '../common/errors/validation.js';

/** A form's problems by field path (`name`, `hero.headline`, `features.1.title`): the API's own sentence for each. */
export type FieldErrors = Record<string, string>;

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/**
 * A form checked by the API's own DTO, with the API's options (whitelist, unknown fields refused): what
 * the API would answer 400 is a problem next to the field, in the API's words, and nothing is cut.
 */
export async function validateForm<T extends object>(dto: new () => T, plain: object): Promise<Validated<T>> {
  const value = plainToInstance(dto, plain);
  const errors = await validate(value, { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: false });
  if (errors.length === 0) return { ok: true, value };
  const problems: FieldErrors = {};
  for (const { path, message } of validationProblems(errors)) problems[path] ??= message;
  return { ok: false, errors: problems };
}
