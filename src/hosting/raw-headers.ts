/**
 * Header blocks as Node's `writeHead` takes them fastest: a flat `[name, value, …]` array. An answer's
 * headers made once and shared (a cached page's, a cached file's) are flattened once, here; the lean
 * path then copies the array and appends the request's own headers. Copying the object and adding two
 * names to it instead cost about 2 µs a request (V8 leaves such a copy as a slow dictionary), and Node
 * walks an object's keys with `for…in` where an array is indexed.
 */
const flattened = new WeakMap<object, readonly string[]>();

/** Marks `headers` as shared and never changed again (it is frozen): its flat form is made once. */
export function sharedHeaders<T extends Record<string, string>>(headers: T): Readonly<T> {
  flattened.set(headers, flatten(headers));
  return Object.freeze(headers);
}

/** The headers as a new flat array, for the caller to append to (the shared flat form copied, or made for a one-off object). */
export function rawHeaders(headers: Record<string, string>): string[] {
  const shared = flattened.get(headers);
  return shared ? shared.slice() : flatten(headers);
}

function flatten(headers: Record<string, string>): string[] {
  const raw: string[] = [];
  for (const name of Object.keys(headers)) raw.push(name, headers[name]);
  return raw;
}
