import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { VisitorIds } from '../analytics/visitor-ids.service.js';
import { sharedHeaders } from '../hosting/raw-headers.js';
import { SplitRepository, SplitVariant } from './split.repository.js';

/**
 * A running split test as the published address serves it: each variant's thing to serve (a site, a deployment)
 * and the upper bound of its bucket range (cumulative weights: 50, 80, 100).
 */
export interface ServedSplit<T> {
  splitId: string;
  bounds: number[];
  variants: T[];
}

export function servedSplit<T>(splitId: string, variants: SplitVariant[], served: T[]): ServedSplit<T> {
  let sum = 0;
  return { splitId, bounds: variants.map((v) => (sum += v.weight)), variants: served };
}

/**
 * The visitor's bucket, 0–99: FNV-1a (32 bits) of the test's id and the visitor id. The visitor id is the day's
 * HMAC of the address and User-Agent (VisitorIds), so the same visitor lands in the same bucket all day, with
 * nothing stored on their side; the test's id mixed in gives each new test a fresh draw.
 */
export function bucketOf(splitId: string, visitorId: string): number {
  let hash = 0x811c9dc5;
  for (const text of [splitId, visitorId]) {
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    hash = Math.imul(hash ^ 0x3a, 0x01000193); // a separator: ("ab","c") and ("a","bc") differ
  }
  return (hash >>> 0) % 100;
}

/** The variant whose bucket range holds the visitor's bucket. */
export function pickVariant<T>(split: ServedSplit<T>, visitorId: string): T {
  const bucket = bucketOf(split.splitId, visitorId);
  for (let i = 0; i < split.bounds.length; i++) if (bucket < split.bounds[i]) return split.variants[i];
  return split.variants[split.variants.length - 1];
}

export function userAgentOf(headers: IncomingHttpHeaders): string {
  const userAgent = headers['user-agent'];
  return typeof userAgent === 'string' ? userAgent : '';
}

/** The private copies of shared (frozen) header objects, made once each. */
const privateCopies = new WeakMap<Record<string, string>, Record<string, string>>();

/**
 * The headers of an answer under a split: `Cache-Control: private` (no shared cache may keep one visitor's variant
 * for another) and `Vary: User-Agent` (the visitor id reads it; the address, the other half, no Vary can name).
 * Shared headers (frozen: see raw-headers.ts) get a shared private copy, made once; a one-off object is changed in place.
 */
export function underSplitHeaders(headers: Record<string, string>): Record<string, string> {
  if (!Object.isFrozen(headers)) {
    headers['cache-control'] = privateCacheControl(headers['cache-control']);
    headers.vary = withUserAgent(headers.vary);
    return headers;
  }
  let copy = privateCopies.get(headers);
  if (!copy) {
    copy = sharedHeaders({ ...headers, 'cache-control': privateCacheControl(headers['cache-control']), vary: withUserAgent(headers.vary) });
    privateCopies.set(headers, copy);
  }
  return copy;
}

/** The few distinct values answers carry, made private once each (bounded: cleared past 256). */
const privateValues = new Map<string, string>();
const varyValues = new Map<string, string>();

function remembered(cache: Map<string, string>, value: string, make: (value: string) => string): string {
  let made = cache.get(value);
  if (made === undefined) {
    if (cache.size >= 256) cache.clear();
    cache.set(value, (made = make(value)));
  }
  return made;
}

/** `public` and `s-maxage` dropped, `private` first; what the browser may keep (max-age, no-cache, immutable) kept. */
export function privateCacheControl(value: string | undefined): string {
  return remembered(privateValues, value ?? '', (text) => {
    const kept = text
      .split(',')
      .map((d) => d.trim())
      .filter((d) => d !== '' && !/^(public|private|s-maxage=\d+)$/i.test(d));
    return ['private', ...kept].join(', ');
  });
}

/** `Vary` with User-Agent added (the visitor id reads it). */
export function withUserAgent(vary: string | undefined): string {
  if (!vary) return 'User-Agent';
  return remembered(varyValues, vary, (text) => (/(^|,)\s*user-agent\s*(,|$)/i.test(text) ? text : `${text}, User-Agent`));
}

const UNDER_SPLIT = Symbol('underSplit');

/** Marks a Fastify reply as an answer under a split: `splitHeadersOnSend` makes its headers private. */
export function markUnderSplit(reply: FastifyReply): void {
  (reply as FastifyReply & { [UNDER_SPLIT]?: true })[UNDER_SPLIT] = true;
}

/** A route's onSend hook: the headers of a reply marked by `markUnderSplit`, whatever answered it (a page, a file, a redirect, an error). */
export function splitHeadersOnSend(_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  if ((reply as FastifyReply & { [UNDER_SPLIT]?: true })[UNDER_SPLIT]) {
    const cacheControl = reply.getHeader('cache-control');
    const vary = reply.getHeader('vary');
    reply.header('cache-control', privateCacheControl(typeof cacheControl === 'string' ? cacheControl : undefined));
    reply.header('vary', withUserAgent(typeof vary === 'string' ? vary : undefined));
  }
  done(null, payload);
}

/**
 * Where the published address picks its deployment (site origins through SiteDirectory and SiteServer, `/p/<slug>/`
 * through SitesService): the app's running split test, if any, and the visitor's variant of it.
 */
@Injectable()
export class SplitAssignment {
  constructor(
    private readonly splits: SplitRepository,
    private readonly visitors: VisitorIds,
  ) {}

  /** The running test's id and variants, in order, or undefined. */
  async running(appId: string): Promise<{ splitId: string; variants: SplitVariant[] } | undefined> {
    const split = await this.splits.running(appId);
    return split && { splitId: split.id, variants: split.variants };
  }

  /** The visitor's id for this app today (the salt read once a day; later calls are synchronous inside). */
  visitorId(appId: string, ip: string, headers: IncomingHttpHeaders): Promise<string> {
    return this.visitors.idOf(appId, ip, userAgentOf(headers));
  }

  /** `visitorId` without a promise once the day's salt is loaded; undefined before. */
  visitorIdNow(appId: string, ip: string, headers: IncomingHttpHeaders): string | undefined {
    return this.visitors.idNow(appId, ip, userAgentOf(headers));
  }

  /** The deployment this visitor is served at the app's public address: its variant under a test, else undefined. */
  async deploymentFor(appId: string, ip: string, headers: IncomingHttpHeaders): Promise<string | undefined> {
    const split = await this.running(appId);
    if (!split) return undefined;
    const served = servedSplit(
      split.splitId,
      split.variants,
      split.variants.map((v) => v.deploymentId),
    );
    return pickVariant(served, await this.visitorId(appId, ip, headers));
  }
}
