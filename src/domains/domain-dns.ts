import { Injectable } from '@nestjs/common';
import { Resolver } from 'node:dns/promises';
import { AppConfig } from '../config/app-config.js';
import type { DomainCheckResult } from './domain.entity.js';

/** The name whose TXT record proves control of `hostname`. */
export function challengeName(hostname: string): string {
  return `_platform-challenge.${hostname}`;
}

/** What a check found: the challenge's outcome, and whether the name points at its target. */
export interface DnsFindings {
  result: Exclude<DomainCheckResult, 'taken'>;
  message: string;
  found: string[];
  configured: boolean;
}

/** Per try, per server (c-ares): a resolver that does not answer costs this, twice. */
const TRY_TIMEOUT_MS = 1_000;
const TRIES = 2;
/** A whole check (TXT, CNAME and addresses, in parallel) never takes longer than this. */
export const CHECK_DEADLINE_MS = 4_000;
const SHOWN_VALUES = 5;
const SHOWN_LENGTH = 100;

/** Answers that mean "this name has no such record" (not a failure of the lookup itself). */
const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND']);

/**
 * The DNS side of custom domains, through node:dns resolvers: the system's, or DNS_SERVERS. Every
 * check has a resolver of its own, cancelled at the deadline, so a resolver that does not answer
 * makes a `resolver_error` in bounded time and never holds up another check.
 */
@Injectable()
export class DomainDns {
  private readonly servers: string[];

  constructor(config: AppConfig) {
    this.servers = config.dnsServers;
  }

  /** Looks for `expected` among the TXT records at `name` only (an SSO domain's proof: nothing needs to point here). */
  proof(name: string, expected: string): Promise<Omit<DnsFindings, 'configured'>> {
    return this.withResolver((resolver, timedOut) => this.txtAt(resolver, name, expected, timedOut));
  }

  /** Looks for `expected` among the TXT records at the challenge name, and whether `hostname` points at `target`. */
  check(hostname: string, expected: string, target: string): Promise<DnsFindings> {
    return this.withResolver(async (resolver, timedOut) => {
      const [txt, configured] = await Promise.all([this.txt(resolver, hostname, expected, timedOut), this.pointsAt(resolver, hostname, target)]);
      return { ...txt, configured };
    });
  }

  /** A resolver on the configured servers for one check, cancelled at CHECK_DEADLINE_MS (`timedOut` then says so). */
  private async withResolver<T>(lookups: (resolver: Resolver, timedOut: () => boolean) => Promise<T>): Promise<T> {
    const resolver = new Resolver({ timeout: TRY_TIMEOUT_MS, tries: TRIES });
    if (this.servers.length > 0) resolver.setServers(this.servers);
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      resolver.cancel();
    }, CHECK_DEADLINE_MS);
    try {
      return await lookups(resolver, () => timedOut);
    } finally {
      clearTimeout(deadline);
    }
  }

  private txt(resolver: Resolver, hostname: string, expected: string, timedOut: () => boolean): Promise<Omit<DnsFindings, 'configured'>> {
    return this.txtAt(resolver, challengeName(hostname), expected, timedOut);
  }

  private async txtAt(resolver: Resolver, name: string, expected: string, timedOut: () => boolean): Promise<Omit<DnsFindings, 'configured'>> {
    let records: string[][];
    try {
      records = await resolver.resolveTxt(name);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'unknown';
      if (NO_RECORD.has(code)) return { result: 'no_record', message: `No TXT record at ${name} yet`, found: [] };
      if (code === 'ETIMEOUT' || timedOut())
        return {
          result: 'resolver_error',
          message: `The DNS lookup of ${name} timed out (no answer within ${CHECK_DEADLINE_MS / 1000} s); it is tried again`,
          found: [],
        };
      return { result: 'resolver_error', message: `The DNS lookup of ${name} failed (${code}); it is tried again`, found: [] };
    }
    // A record longer than 255 bytes comes in chunks; several records at one name are several values (other services' too).
    const values = records.map((chunks) => chunks.join(''));
    const found = values.slice(0, SHOWN_VALUES).map(shown);
    if (values.some((value) => value.trim() === expected))
      return { result: 'verified', message: `The TXT record at ${name} holds the verification value`, found };
    if (values.length === 0) return { result: 'no_record', message: `No TXT record at ${name} yet`, found };
    const others = values.length === 1 ? '1 other value' : `${values.length} other values`;
    return { result: 'wrong_value', message: `The TXT record at ${name} holds ${others}, not the verification value`, found };
  }

  /** Whether the name's CNAME is the target, or (an apex name, flattened) its addresses are among the target's. */
  private async pointsAt(resolver: Resolver, hostname: string, target: string): Promise<boolean> {
    const quietly = <T>(lookup: Promise<T[]>) => lookup.catch(() => [] as T[]);
    const cnames = await quietly(resolver.resolveCname(hostname));
    if (cnames.some((c) => sameName(c, target))) return true;
    const [own, theirs] = await Promise.all([this.addresses(resolver, hostname, quietly), this.addresses(resolver, target, quietly)]);
    return own.some((address) => theirs.includes(address));
  }

  private async addresses(resolver: Resolver, name: string, quietly: <T>(lookup: Promise<T[]>) => Promise<T[]>): Promise<string[]> {
    const [v4, v6] = await Promise.all([quietly(resolver.resolve4(name)), quietly(resolver.resolve6(name))]);
    return [...v4, ...v6];
  }
}

function sameName(a: string, b: string): boolean {
  return a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');
}

/** A value from someone's DNS, as it may be shown: printable, and short. */
function shown(value: string): string {
  // eslint-disable-next-line no-control-regex
  const printable = value.replace(/[\x00-\x1f\x7f]/g, '?');
  return printable.length > SHOWN_LENGTH ? `${printable.slice(0, SHOWN_LENGTH - 1)}…` : printable;
}
