import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * SSRF guard for webhook URLs: the addresses a receiver may be reached at. Blocks private,
 * loopback, link-local, CGNAT, multicast, documentation and other reserved ranges, v4 and v6.
 */
// Two lists: one BlockList treats a v4 address as its mapped v6 form (::ffff:a.b.c.d) and would match it against ::ffff:0:0/96.
const BLOCKED_V4 = new BlockList();
const BLOCKED_V6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED_V4.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  // Forms that carry a v4 address — IPv4-compatible (::a.b.c.d, e.g. [::127.0.0.1]), IPv4-mapped,
  // IPv4-translated (::ffff:0:a.b.c.d), NAT64 and 6to4 — are not allowed at all.
  ['::', 96],
  ['::ffff:0:0', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED_V6.addSubnet(net, prefix, 'ipv6');
}

const ALLOW_PRIVATE_HINT = 'WEBHOOK_ALLOW_PRIVATE=true';

export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED_V4.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return true;
    return BLOCKED_V6.check(address, 'ipv6');
  }
  return true;
}

export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';
  constructor(message = 'blocked address') {
    super(message);
  }
}

/** Every address of a host (v4 and v6); an IP literal is its own answer. */
export function resolveAll(hostname: string): Promise<LookupAddress[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  if (family) return Promise.resolve([{ address: host, family }]);
  return new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));
}

/** Why this URL is not an acceptable receiver, or null. Resolves the host. */
export async function urlProblem(raw: string, allowPrivate: boolean): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute URL';
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    return allowPrivate ? 'url must be an http(s) URL' : `url must be an https:// URL (http:// is allowed only when the operator sets ${ALLOW_PRIVATE_HINT})`;
  }
  if (url.username || url.password) return 'url must not contain credentials';
  if (!url.hostname) return 'url must have a host';
  if (allowPrivate) return null;
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(url.hostname);
  } catch {
    return `url host ${url.hostname} does not resolve`;
  }
  if (addresses.length === 0) return `url host ${url.hostname} does not resolve`;
  if (addresses.some((a) => isBlockedAddress(a.address))) {
    return `url must not point to a private, loopback, link-local or reserved address (allowed only when the operator sets ${ALLOW_PRIVATE_HINT}, for development)`;
  }
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http(s) requests that resolves the host and refuses blocked addresses, so the
 * socket connects only to an address that was checked (no DNS-rebinding gap between check and use).
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number } | number, callback: LookupCallback): void => {
    const all = typeof options === 'object' && options?.all === true;
    resolveAll(hostname).then(
      (addresses) => {
        const usable = allowPrivate ? addresses : addresses.filter((a) => !isBlockedAddress(a.address));
        if (usable.length === 0 || usable.length !== addresses.length) {
          const err = new BlockedAddressError() as NodeJS.ErrnoException;
          err.code = 'EBLOCKED';
          callback(err, all ? [] : '', 4);
          return;
        }
        if (all) callback(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, all ? [] : '', 4),
    );
  };
}
