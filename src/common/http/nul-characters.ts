import type { FastifyRequest } from 'fastify';
import { RequestError } from '../errors/request-errors.js';

/** Where in a parsed value a string holds a NUL character (`name`, `items[2].title`), if anywhere. */
export function nulCharacterAt(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulCharacterAt(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = nulCharacterAt(item, path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * For a Fastify preHandler: PostgreSQL cannot store NUL in text (SQLSTATE 22021), and no field of
 * this API has a use for it, so any string holding one — in the path, the query or the body — is a
 * 400 naming the field, before anything runs. Answers that error, or undefined.
 */
export function nulCharacterError(request: FastifyRequest): RequestError | undefined {
  const found =
    nulCharacterAt(request.params, '') ??
    nulCharacterAt(request.query, '') ??
    nulCharacterAt(request.body, '') ??
    (request.url.includes('%00') ? 'path' : undefined);
  return found ? RequestError.invalid([`${found || 'path'} must not contain NUL characters`]) : undefined;
}
