import { isIPv4, isIPv6 } from 'node:net';

/**
 * The network a per-client limit counts (the portal's sign-in, a visitor's beacons and sign-ups):
 * an IPv4 address as it is; an IPv6 address by its /64 (one subscriber usually holds a whole /64
 * and can send from any of its 2^64 addresses, so counting them one by one would limit nothing);
 * an IPv4-mapped IPv6 address (`::ffff:203.0.113.9`) as the IPv4 address it maps.
 */
export function clientNetworkOf(ip: string): string {
  if (isIPv4(ip)) return ip;
  const address = ip.split('%')[0]; // a zone index (`fe80::1%eth0`) is not part of the address
  if (!isIPv6(address)) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  return `${hextets(address).slice(0, 4).join(':')}::/64`;
}

/** The 8 groups of a valid IPv6 address, without leading zeros, `::` expanded (an embedded IPv4 tail as two groups). */
function hextets(address: string): string[] {
  let text = address.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16).toString(16));
}

/**
 * An address as the audit log keeps it: an IPv4 address's /24 (`203.0.113.0/24`), an IPv6
 * address's /48 (`2001:db8:1::/48`), an IPv4-mapped address as its IPv4 network. Enough to tell
 * networks apart, not to single out a subscriber.
 */
export function truncatedIp(ip: string): string {
  const address = ip.split('%')[0];
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const v4 = mapped ? mapped[1] : address;
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  if (!isIPv6(address)) return 'unknown';
  return `${hextets(address).slice(0, 3).join(':')}::/48`;
}
