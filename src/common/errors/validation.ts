import { ArgumentMetadata, Type, ValidationError, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { handValidatedFields } from '../http/validated-by-hand.js';
import { RequestError } from './request-errors.js';

/** Every problem of nested class-validator errors: the field's path (`hero.headline`, `features.0.title`) and its "field must …" sentence. */
export function validationProblems(errors: ValidationError[], parent = ''): Array<{ path: string; message: string }> {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    // Nested fields are named by their path: "hero.headline must be…", "property hero.subtitle should not exist".
    const own = Object.values(error.constraints ?? {}).map((m) => ({
      path,
      message: parent ? m.replace(new RegExp(`^(property )?${error.property}\\b`), (_match, prefix: string | undefined) => `${prefix ?? ''}${path}`) : m,
    }));
    return own.concat(validationProblems(error.children ?? [], path));
  });
}

/** Flattens nested class-validator errors into "field must …" sentences, naming every bad field. */
export function flattenValidationErrors(errors: ValidationError[]): string[] {
  return validationProblems(errors).map((p) => p.message);
}

/** Valid query strings remembered per DTO class; past this many, a class's memory starts afresh. */
const QUERIES_REMEMBERED = 500;

/**
 * The ValidationPipe, remembering the query strings it found valid. A list route is asked the same
 * `?limit=20` again and again, and class-transformer + class-validator were about a tenth of such a
 * request's CPU (docs/decisions/2026-11-25-query-strings-validated-once.md). A query DTO's rules depend on the query alone (strings in, no I/O,
 * no clock), so the same query string always gives the same DTO: it is built once, and each request gets
 * its own copy. Bodies are not remembered (they are larger, and rarely the same twice).
 */
class QueryRememberingValidationPipe extends ValidationPipe {
  private readonly validQueries = new Map<Type, Map<string, object>>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const dtoClass = metadata.metatype;
    if (metadata.type === 'body' && dtoClass && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const byHand = handValidatedFields(dtoClass);
      if (byHand.length > 0) return this.transformAround(value as Record<string, unknown>, metadata, byHand);
    }
    if (metadata.type !== 'query' || metadata.data !== undefined || !dtoClass || !this.toValidate(metadata) || typeof value !== 'object' || value === null) {
      return super.transform(value, metadata);
    }
    const query = JSON.stringify(value);
    let known = this.validQueries.get(dtoClass);
    const dto = known?.get(query);
    if (dto) return Object.assign(Object.create(dtoClass.prototype as object) as object, dto);
    const fresh = (await super.transform(value, metadata)) as object; // throws on an invalid query: nothing remembered
    if (!known || known.size >= QUERIES_REMEMBERED) this.validQueries.set(dtoClass, (known = new Map()));
    known.set(query, Object.freeze({ ...fresh }));
    return fresh;
  }

  /** The body without its hand-validated fields through the pipe, then those fields put back as sent (see ValidatedByHand). */
  private async transformAround(body: Record<string, unknown>, metadata: ArgumentMetadata, byHand: string[]): Promise<unknown> {
    const rest = { ...body };
    for (const field of byHand) delete rest[field];
    const dto = (await super.transform(rest, metadata)) as Record<string, unknown>;
    for (const field of byHand) if (Object.hasOwn(body, field)) dto[field] = body[field];
    return dto;
  }
}

export function createValidationPipe(): ValidationPipe {
  const options: ValidationPipeOptions = {
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    // A 400 with reason invalid_parameter, listing the first few problems (a body of 1,000 unknown keys has 1,000).
    exceptionFactory: (errors) => RequestError.invalid(flattenValidationErrors(errors)),
  };
  return new QueryRememberingValidationPipe(options);
}
