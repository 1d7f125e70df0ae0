/** The value of one cookie of a Cookie header. */
export function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return decodeURIComponent(part.slice(at + 1).trim());
  }
  return undefined;
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
