import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

/** Why a hostname cannot be a custom domain (the error `reason`). */
export type HostnameProblem = 'hostname_invalid' | 'hostname_ip' | 'hostname_localhost' | 'hostname_reserved';

/** The names the platform itself answers on: nobody may claim them. */
export interface PlatformNames {
  /** SITES_DOMAIN: the domain and every name under it. */
  sitesDomain?: string;
  /** PUBLIC_URL's host name (the API and the portal). */
  publicHost: string;
}

export type ParsedHostname = { hostname: string } | { problem: HostnameProblem; message: string };

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const MAX_NAME = 253;

/**
 * A hostname as a customer typed it → its ASCII form (`Bücher.Example.` → `xn--bcher-kva.example`), or
 * why it cannot be a custom domain: not a DNS name (a URL, a port, a wildcard, one label, a bad
 * label), an IP address, `localhost` or a name under it, or one of the platform's own names.
 */
export function parseHostname(input: string, ours: PlatformNames): ParsedHostname {
  const typed = input.trim();
  const bare = typed.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare)) return problem('hostname_ip', `hostname ${JSON.stringify(typed)} is an IP address; give a DNS name such as www.example.com`);
  if (/[/:@?#\s\\]/.test(typed))
    return problem('hostname_invalid', `hostname ${JSON.stringify(typed)} must be a host name alone, without scheme, port, path or spaces (www.example.com)`);
  if (typed.includes('*')) return problem('hostname_invalid', `hostname ${JSON.stringify(typed)} is a wildcard; add each name on its own`);
  // One trailing dot is the root: `example.com.` is `example.com`.
  const rooted = typed.endsWith('.') ? typed.slice(0, -1) : typed;
  // UTS #46 mapping (case folding, IDNA): '' when the name cannot be a host; numeric forms become an IPv4 address.
  const ascii = domainToASCII(rooted);
  if (ascii && isIP(ascii)) return problem('hostname_ip', `hostname ${JSON.stringify(typed)} is an IP address; give a DNS name such as www.example.com`);
  if (!ascii || ascii.length > MAX_NAME || !ascii.split('.').every((label) => LABEL.test(label)))
    return problem('hostname_invalid', `hostname ${JSON.stringify(typed)} is not a valid DNS name (labels of a-z, 0-9 and -, at most 63 characters each)`);
  if (ascii === 'localhost' || ascii.endsWith('.localhost')) return problem('hostname_localhost', `hostname ${JSON.stringify(typed)} is localhost`);
  const labels = ascii.split('.');
  if (labels.length < 2) return problem('hostname_invalid', `hostname ${JSON.stringify(typed)} needs a domain (www.example.com), not a single label`);
  if (/^\d+$/.test(labels[labels.length - 1]))
    return problem('hostname_invalid', `hostname ${JSON.stringify(typed)} ends in a number, which no top-level domain does`);
  const { sitesDomain, publicHost } = ours;
  if (sitesDomain && (ascii === sitesDomain || ascii.endsWith(`.${sitesDomain}`)))
    return problem('hostname_reserved', `hostname ${JSON.stringify(typed)} is under ${sitesDomain}, the platform's own sites domain`);
  if (ascii === publicHost) return problem('hostname_reserved', `hostname ${JSON.stringify(typed)} is the platform's own address`);
  return { hostname: ascii };
}

/**
 * The host name a request's `Host` header names, as custom domains are stored: lowercase ASCII,
 * without port or trailing dot (`WWW.Example.com.:443` → `www.example.com`); undefined for an IP
 * literal or a name that is not one.
 */
export function hostnameOfHeader(host: string | undefined): string | undefined {
  if (!host || host.charCodeAt(0) === 91 /* [ : an IPv6 literal */) return undefined;
  let name = host;
  const colon = name.lastIndexOf(':');
  if (colon >= 0) name = name.slice(0, colon);
  if (name.endsWith('.')) name = name.slice(0, -1);
  // Headers are ASCII in practice: the Unicode form of a name is mapped only when one arrives.
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(name) ? name.toLowerCase() : domainToASCII(name) || undefined;
}

function problem(reason: HostnameProblem, message: string): ParsedHostname {
  return { problem: reason, message };
}
