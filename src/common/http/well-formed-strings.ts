import type { FastifyRequest } from 'fastify';
import { RequestError } from '../errors/request-errors.js';

/**
 * What makes a string unfit to store, if anything. PostgreSQL takes neither a NUL character in text
 * (SQLSTATE 22021) nor a lone surrogate in JSON (22P02: what JSON's `"\ud800"` gives), and no field of
 * this API has a use for them.
 */
function flawOf(text: string): string | undefined {
  if (text.includes('\u0000')) return 'NUL characters';
  if (!text.isWellFormed()) return 'lone surrogates (not well-formed Unicode)';
  return undefined;
}

/**
 * The first string of a parsed value (or key of one of its objects) that is unfit to store, as a
 * sentence naming its field (`name`, `items[2].title`; a bad key names its object). One walk for every
 * check, iterative, stopping at the first problem; the JSON limits bound the values it visits.
 */
export function malformedStringIn(value: unknown, where: string): string | undefined {
  const pending: Array<[unknown, string]> = [[value, '']];
  while (pending.length > 0) {
    const [item, path] = pending.pop()!;
    if (typeof item === 'string') {
      const flaw = flawOf(item);
      if (flaw) return `${path || where} must not contain ${flaw}`;
    } else if (Array.isArray(item)) {
      // Pushed last to first: the first bad field in document order is the one named.
      for (let i = item.length - 1; i >= 0; i--) pending.push([item[i], `${path}[${i}]`]);
    } else if (item !== null && typeof item === 'object') {
      const entries = Object.entries(item);
      const badKey = entries.find(([key]) => flawOf(key) !== undefined);
      if (badKey) return `${path || where} must not have keys with ${flawOf(badKey[0])}`;
      for (let i = entries.length - 1; i >= 0; i--) pending.push([entries[i][1], path ? `${path}.${entries[i][0]}` : entries[i][0]]);
    }
  }
  return undefined;
}

/**
 * For a Fastify preHandler: a string unfit to store in the path, the query or the body is a 400
 * naming the field, before anything runs. Answers that error, or undefined.
 */
export function malformedStringError(request: FastifyRequest): RequestError | undefined {
  const found =
    malformedStringIn(request.params, 'path') ??
    malformedStringIn(request.query, 'query') ??
    (Buffer.isBuffer(request.body) ? undefined : malformedStringIn(request.body, 'body')) ?? // raw bytes (uploads) are not text
    (request.url.includes('%00') ? 'path must not contain NUL characters' : undefined);
  return found ? RequestError.invalid([found]) : undefined;
}
