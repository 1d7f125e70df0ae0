import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';

/** Flattens nested class-validator errors into "field must …" sentences, naming every bad field. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    // Nested fields are named by their path: "hero.headline must be…", "property hero.subtitle should not exist".
    const own = Object.values(error.constraints ?? {}).map((m) =>
      parent ? m.replace(new RegExp(`^(property )?${error.property}\\b`), (_match, prefix: string | undefined) => `${prefix ?? ''}${path}`) : m,
    );
    return own.concat(flattenValidationErrors(error.children ?? [], path));
  });
}

export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => {
      const details = flattenValidationErrors(errors);
      return new BadRequestException({ message: details.join('; '), details });
    },
  });
}
