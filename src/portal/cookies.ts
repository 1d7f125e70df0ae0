/** The value of one cookie of a Cookie header; a value that does not decode (`%`, `%zz`) is no cookie at all. */
export function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0 || part.slice(0, at).trim() !== name) continue;
    const value = decoded(part.slice(at + 1).trim());
    if (value !== undefined) return value;
  }
  return undefined;
}

function decoded(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined; // URIError: a cookie this service never set
  }
}

/** A Set-Cookie value for the portal: HttpOnly, SameSite=Lax, Path=/portal, Secure over https. */
export function portalCookie(name: string, value: string, secure: boolean, maxAgeSeconds?: number): string {
  return [
    `${name}=${encodeURIComponent(value)}`,
    'Path=/portal',
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
    ...(maxAgeSeconds !== undefined ? [`Max-Age=${maxAgeSeconds}`] : []),
  ].join('; ');
}
