/** Hop-by-hop headers (RFC 9110 §7.6.1, with the obsolete `keep-alive` and `proxy-connection`): never forwarded, never set by a site. */
export const HOP_BY_HOP_HEADERS: readonly string[] = [
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];
