import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { AnalyticsCollector } from '../analytics/analytics-collector.js';
import { CollectService } from '../analytics/collect.service.js';
import { SITE_TRACKER_SCRIPT } from '../analytics/tracker-script.js';
import { AppAddresses } from '../apps/app-addresses.js';
import { BandwidthMeter } from '../billing/bandwidth-meter.js';
import { AppConfig } from '../config/app-config.js';
import { landingPageOf } from '../deployments/deployment-snapshot.js';
import { BLOB_STORE, type BlobStore } from '../files/blob-store.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { markUnderSplit, pickVariant, SplitAssignment, underSplitHeaders } from '../publishing/split-assignment.js';
import type { SiteHtml } from '../sites/site-pages.js';
import { SitePages } from '../sites/site-pages.js';
import { SitesError } from '../sites/sites.errors.js';
import type { SiteTarget } from '../sites/sites.service.js';
import { signupAnswerOrNotFound } from '../sites/signup-answer.js';
import { SignupTokens } from '../sites/signup-token.js';
import { SignupService } from '../sites/signup.service.js';
import { CompressionPool } from './compression-pool.js';
import { type CachedFile, FileCache } from './file-cache.js';
import { DiskTier, type SizedStream } from './file-disk-tier.js';
import { type FileAnswer, fileAnswer, ServedFile } from './file-response.js';
import { sharedHeaders } from './raw-headers.js';
import { fileAt, ServedSite } from './served-site.js';
import { SiteDirectory, SiteLookup } from './site-directory.js';
import { readSitePath, redirectLocation, SitePath } from './site-paths.js';
import { isDocumentRequest, sightingOf } from './page-sighting.js';

const TRACKER_ETAG = `"${createHash('sha256').update(SITE_TRACKER_SCRIPT).digest('base64url').slice(0, 16)}"`;
const TRACKER_HEADERS = {
  'content-type': 'text/javascript; charset=utf-8',
  'cache-control': 'public, max-age=86400',
  etag: TRACKER_ETAG,
  'x-content-type-options': 'nosniff',
};
const NOT_FOUND = { title: 'Not found', heading: 'Nothing here', text: 'There is no page at this address, or it was taken down.' };
const NONE: SiteLookup = { kind: 'none' };
const FILE_METHODS = 'GET, HEAD';

/** What serving reads of a request: Fastify's, or a raw one on the lean path (see `answerLean`). */
interface SiteRequest {
  method: string;
  headers: IncomingHttpHeaders;
}

/** An answer made without Fastify's reply, written by either path. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string | SizedStream | null;
}

/** How a request reached a site, and what it may count as. */
interface Seen {
  request: SiteRequest;
  /** The client's address (X-Forwarded-For from the hops TRUST_PROXY names), worked out only when analytics asks. */
  ip: () => string;
  site: ServedSite;
  target: SiteTarget;
  path: SitePath;
  /** Preview origins (a deployment's, an environment's) are never indexed. */
  noindex: boolean;
}

/** A request through Fastify's route, answered through its reply. */
interface Visit extends Seen {
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * Answers requests to site origins (`<label>.<SITES_DOMAIN>`), outside Nest's pipeline: what a label
 * names comes from `SiteDirectory`, file bytes from `FileCache` (read through the blob store under the
 * deployment's own account). Every site origin has the platform's paths — `/signup`, `/thanks`,
 * `/_platform/analytics.js`, `/_platform/collect`, `/_platform/signup-token` — which no file can
 * shadow. A deployment without files is its landing page, as on the API's origin.
 */
@Injectable()
export class SiteServer implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Sites');
  readonly files: FileCache;
  private readonly compressionPool: CompressionPool;
  private closing = false;

  constructor(
    private readonly directory: SiteDirectory,
    private readonly pages: SitePages,
    private readonly signups: SignupService,
    private readonly tokens: SignupTokens,
    private readonly collector: CollectService,
    private readonly analytics: AnalyticsCollector,
    private readonly bandwidth: BandwidthMeter,
    private readonly addresses: AppAddresses,
    private readonly splits: SplitAssignment,
    config: AppConfig,
    @Inject(BLOB_STORE) blobs: BlobStore,
    metrics: MetricsService,
  ) {
    const disk = config.SITE_DISK_CACHE_BYTES > 0 ? new DiskTier(config.SITE_DISK_CACHE_BYTES) : null;
    const pool = (this.compressionPool = new CompressionPool(
      CompressionPool.sizeFor(config.SITE_COMPRESS_WORKERS),
      config.SITE_COMPRESS_QUEUE,
      config.SITE_COMPRESS_NICE,
    ));
    const files = (this.files = new FileCache(config.SITE_CACHE_BYTES, blobs, disk, { maxBytes: config.SITE_COMPRESS_MAX_BYTES, pool }));
    metrics.gauge({
      name: 'site_file_cache_bytes',
      help: 'Bytes of site files (with their compressed copies) in this instance’s memory; at most SITE_CACHE_BYTES',
      collect() {
        this.set(files.size.bytes);
      },
    });
    metrics.gauge({
      name: 'site_file_disk_cache_bytes',
      help: 'Bytes of large site files (with their compressed copies) in this instance’s disk tier; at most SITE_DISK_CACHE_BYTES',
      collect() {
        this.set(disk?.size.bytes ?? 0);
      },
    });
  }

  /** A request whose Host named `label` under the sites' domain (`''`: a name that cannot be a site). */
  async serve(request: FastifyRequest, reply: FastifyReply, label: string): Promise<void> {
    const lookup = label === '' ? NONE : (this.directory.peek(label) ?? (await this.directory.lookup(label)));
    const path = readSitePath(request.originalUrl);
    if (lookup.kind !== 'site') return this.unknown(request, reply, lookup, path);
    const { address } = lookup;
    let { site } = lookup;
    if (lookup.split) {
      // A split test: this visitor's variant, and private answers (splitHeadersOnSend).
      site = pickVariant(lookup.split, await this.splits.visitorId(site.deployment.appId, request.ip, request.headers));
      markUnderSplit(reply);
    }
    const noindex = address !== 'public';
    if (typeof path === 'string') {
      const status = path === 'bad_request' ? 400 : 404;
      return this.html(reply, site, noindex, this.pages.notice(status, status === 400 ? { ...NOT_FOUND, heading: 'This address is malformed' } : NOT_FOUND));
    }
    const visit: Visit = {
      request,
      reply,
      ip: () => request.ip,
      site,
      noindex,
      path,
      target: { deployment: site.deployment, basePath: '/', action: 'page', address },
    };
    switch (path.path) {
      case '/signup':
        return this.signup(visit);
      case '/thanks':
        return this.thanks(visit);
      case '/_platform/analytics.js':
        return this.tracker(visit);
      case '/_platform/collect':
        return this.collect(visit);
      case '/_platform/signup-token':
        return this.signupToken(visit);
    }
    if (path.path.startsWith('/_platform/')) return this.notFound(visit);
    if (site.files === null) return this.landingOnly(visit);
    return this.bundle(visit);
  }

  /**
   * The lean path (see site-routes.ts): a GET or HEAD without a body, of a site whose host is in
   * memory, answered on Node's own request — the landing page, or a file whose bytes are cached —
   * without Fastify's request, reply, hooks and per-request log line. Anything else (other methods,
   * the platform's paths, redirects, not-found pages, a file to read, a host to look up) answers
   * undefined, having done nothing: Fastify's route serves it. The answer is counted, metered and
   * stamped with its request id as on that route; its caller writes it.
   */
  answerLean(method: string, url: string, headers: IncomingHttpHeaders, label: string, ip: () => string): Answer | undefined {
    if ((method !== 'GET' && method !== 'HEAD') || this.closing || url.includes('%00')) return undefined;
    if (headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0')) return undefined;
    const lookup = this.directory.peek(label);
    if (lookup?.kind !== 'site') return undefined;
    const path = readSitePath(url);
    if (typeof path === 'string' || path.path === '/signup' || path.path === '/thanks' || path.path.startsWith('/_platform/')) return undefined;
    const { address } = lookup;
    let { site } = lookup;
    if (lookup.split) {
      const visitorId = this.splits.visitorIdNow(site.deployment.appId, ip(), headers);
      if (visitorId === undefined) return undefined; // the day's salt is not read yet: Fastify's route waits for it
      site = pickVariant(lookup.split, visitorId);
    }
    // Plain properties only: an object literal with a getter cost about 0.7 µs a request to make.
    const seen: Seen = {
      request: { method, headers },
      ip,
      site,
      path,
      noindex: address !== 'public',
      target: { deployment: site.deployment, basePath: '/', action: 'page', address },
    };
    const answer = this.leanAnswer(seen, path);
    if (answer && lookup.split) answer.headers = underSplitHeaders(answer.headers);
    return answer;
  }

  private leanAnswer(seen: Seen, path: SitePath): Answer | undefined {
    const { site } = seen;
    if (site.files === null) return path.path === '/' ? this.landingAnswer(seen) : undefined;
    if (site.redirects.some((redirect) => redirect.pattern.match(path.path))) return undefined;
    const chosen = chooseFile(site, path.path);
    if (chosen === 'landing') return this.landingAnswer(seen);
    if (typeof chosen === 'string') return undefined;
    const bytes = this.files.peek(chosen.cache);
    return bytes && this.fileAnswer(seen, chosen, bytes, 200);
  }

  /** Shutting down: the lean path leaves every request to Fastify's, which answers 503 while closing. */
  beforeApplicationShutdown(): void {
    this.closing = true;
  }

  /** The compression workers stop with the app (a test's app too: its threads would outlive it). */
  async onApplicationShutdown(): Promise<void> {
    await this.compressionPool.close();
  }

  /** A label that names nothing servable: 404, 410 (unpublished) or 301 (a renamed slug) — an HTML page for browsers, the envelope for others. */
  private async unknown(request: FastifyRequest, reply: FastifyReply, lookup: SiteLookup, path: SitePath | string): Promise<void> {
    if (lookup.kind === 'moved' && typeof path !== 'string') {
      const origin = this.addresses.publicOrigin(lookup.label);
      if (origin) return void (await reply.redirect(`${origin}${path.raw}${path.search}`, 301));
    }
    const error = lookup.kind === 'gone' ? SitesError.gone() : SitesError.pageNotFound();
    if (!request.headers.accept?.includes('text/html')) throw error;
    const page =
      lookup.kind === 'gone'
        ? this.pages.notice(410, { title: 'Taken down', heading: 'This app was taken down', text: 'Its developer unpublished it. It may be back later.' })
        : this.pages.notice(404, NOT_FOUND);
    await reply.status(page.status).headers(page.headers).send(page.html);
  }

  /** A deployment without files: its landing page at `/`, nothing else (as at its address on the API's origin). */
  private landingOnly(visit: Visit): Promise<void> {
    const { request, path } = visit;
    if (path.path !== '/' || (request.method !== 'GET' && request.method !== 'HEAD')) return this.notFound(visit);
    return this.landingPage(visit);
  }

  private async landingPage(visit: Visit): Promise<void> {
    await send(visit.reply, this.landingAnswer(visit));
  }

  /** The landing page (counted when it is a GET), or its 304. */
  private landingAnswer(visit: Seen): Answer {
    const { request, target } = visit;
    if (request.method === 'GET') this.analytics.servedPage(sightingOf(visit));
    const page = this.pages.page(target);
    if (page.headers.etag && request.headers['if-none-match'] === page.headers.etag) {
      const { etag, 'cache-control': cacheControl } = page.headers;
      return { status: 304, headers: this.withRobots(visit.noindex, { etag, 'cache-control': cacheControl }), body: null };
    }
    if (request.method !== 'HEAD') this.bandwidth.count(visit.site.accountId, Buffer.byteLength(page.html));
    return { status: page.status, headers: this.withRobots(visit.noindex, page.headers), body: page.html };
  }

  private async thanks(visit: Visit): Promise<void> {
    const { request, reply, site, target } = visit;
    if (request.method !== 'GET' && request.method !== 'HEAD') return this.notFound(visit);
    if (request.method === 'GET') this.analytics.servedPage(sightingOf(visit));
    return this.html(reply, site, visit.noindex, this.pages.thanks({ ...target, action: 'thanks' }), request.method === 'HEAD');
  }

  /** The sign-up form's post (a landing page's, or the app's own form with a token from /_platform/signup-token): 303 to /thanks. */
  private async signup(visit: Visit): Promise<void> {
    const { request, reply, site } = visit;
    if (request.method !== 'POST') return this.notFound(visit);
    const target: SiteTarget = { ...visit.target, action: 'signup' };
    const outcome = await this.signups.submit(target, (request.body ?? {}) as Record<string, unknown>, sightingOf(visit));
    let answer: SiteHtml | string;
    try {
      answer = signupAnswerOrNotFound(outcome, target, this.pages, site.files !== null);
    } catch {
      return this.notFound(visit);
    }
    if (typeof answer === 'string') {
      await reply.redirect(answer, 303);
      // The 303 has gone out: only now is the user created, so the answer's timing cannot tell a known address.
      if (outcome.kind === 'thanks') outcome.afterReply?.();
      return;
    }
    return this.html(reply, site, visit.noindex, answer);
  }

  /** `{ "token" }` for an app's own sign-up form (same origin only: no CORS headers, never cached). */
  private async signupToken(visit: Visit): Promise<void> {
    const { request, reply, site } = visit;
    if (request.method !== 'GET' || !landingPageOf(site.deployment.snapshot).signup.enabled) return this.notFound(visit);
    const body = JSON.stringify({ token: this.tokens.issue(site.deployment.id) });
    this.bandwidth.count(site.accountId, body.length);
    await reply
      .status(200)
      .headers(
        this.withRobots(visit.noindex, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }),
      )
      .send(body);
  }

  private async tracker(visit: Visit): Promise<void> {
    const { request, reply, site } = visit;
    if (request.method !== 'GET' && request.method !== 'HEAD') return this.notFound(visit);
    const headers = this.withRobots(visit.noindex, { ...TRACKER_HEADERS });
    if (request.headers['if-none-match'] === TRACKER_ETAG) return void (await reply.status(304).headers(headers).send());
    if (request.method === 'GET') this.bandwidth.count(site.accountId, SITE_TRACKER_SCRIPT.length);
    await reply.status(200).headers(headers).send(SITE_TRACKER_SCRIPT);
  }

  /** The tracker's beacons, counted for this site's app through the same collector (limits, privacy rules) as `/collect`. */
  private async collect(visit: Visit): Promise<void> {
    const { request, reply, site } = visit;
    if (request.method !== 'POST') return this.notFound(visit);
    await this.collector.collectForSite(site.deployment.appId, request.body, request.ip, request.headers);
    await reply
      .status(202)
      .headers(this.withRobots(visit.noindex, { 'cache-control': 'no-store' }))
      .send();
  }

  /** A deployment with files: its redirects, then the file the path names (index, clean URLs, SPA fallback, 404.html). */
  private async bundle(visit: Visit): Promise<void> {
    const { request, reply, site, path } = visit;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const page = this.pages.notice(405, { title: 'Not allowed', heading: 'Only GET and HEAD here', text: 'This address serves files.' });
      return this.html(reply, site, visit.noindex, { ...page, headers: { ...page.headers, allow: FILE_METHODS } });
    }
    for (const redirect of site.redirects) {
      const values = redirect.pattern.match(path.path);
      if (values)
        return void (await reply
          .headers(this.withRobots(visit.noindex, {}))
          .redirect(redirectLocation(redirect.destination, values, path.search), redirect.status));
    }
    const chosen = chooseFile(site, path.path);
    if (chosen === 'folder') {
      // A folder named without its slash: relative links inside it resolve only with it.
      return void (await reply.headers(this.withRobots(visit.noindex, {})).redirect(`${path.raw}/${path.search}`, 301));
    }
    if (chosen === 'landing') return this.landingPage(visit);
    if (chosen === 'none') return this.notFound(visit);
    return this.file(visit, chosen, 200);
  }

  /** A site's 404: its own `/404.html` when it has one (status 404), else the platform's page. */
  private async notFound(visit: Visit): Promise<void> {
    const page = visit.site.files ? fileAt(visit.site, '/404.html') : undefined;
    if (page && (visit.request.method === 'GET' || visit.request.method === 'HEAD')) return this.file(visit, page, 404);
    if (!visit.site.files && !visit.request.headers.accept?.includes('text/html')) throw SitesError.pageNotFound();
    return this.html(visit.reply, visit.site, visit.noindex, this.pages.notice(404, NOT_FOUND), visit.request.method === 'HEAD');
  }

  private async file(visit: Visit, file: ServedFile, status: 200 | 404): Promise<void> {
    const { reply, site } = visit;
    const bytes = this.files.peek(file.cache) ?? (await this.files.get(file.cache));
    if (!bytes) {
      this.logger.error(`The blob ${file.sha256} of ${site.deployment.id} (${file.path}) is missing from the store`);
      return this.html(
        reply,
        site,
        visit.noindex,
        this.pages.notice(503, { title: 'Unavailable', heading: 'This file cannot be read now', text: 'Try again later.' }),
      );
    }
    await send(reply, this.fileAnswer(visit, file, bytes, status));
  }

  /** A file's answer from its cached bytes (counted, and metered, as it goes out). */
  private fileAnswer(visit: Seen, file: ServedFile, bytes: CachedFile, status: 200 | 404): Answer {
    const { request, site, path } = visit;
    // A not-found page is the whole page, whatever the request's conditions.
    const answer = fileAnswer(file, bytes, status === 404 ? { 'accept-encoding': request.headers['accept-encoding'] } : request.headers);
    const headers = fileHeaders(
      file,
      answer,
      visit.noindex,
      site.headers.filter((rule) => rule.pattern.match(path.path)),
    );
    const body = answer.body;
    if (request.method === 'GET') {
      if (body) this.bandwidth.count(site.accountId, body.length);
      if (file.kind.html && status === 200 && (answer.status === 200 || answer.status === 304) && isDocumentRequest(request)) {
        this.analytics.servedPage(sightingOf(visit));
      }
    }
    return { status: status === 404 ? 404 : answer.status, headers, body };
  }

  private async html(reply: FastifyReply, site: ServedSite, noindex: boolean, page: SiteHtml, head = false): Promise<void> {
    if (!head) this.bandwidth.count(site.accountId, Buffer.byteLength(page.html));
    await reply.status(page.status).headers(this.withRobots(noindex, page.headers)).send(page.html);
  }

  /** The headers with `X-Robots-Tag: noindex` on a preview origin (a copy only when it must be added). */
  private withRobots(noindex: boolean, headers: Record<string, string>): Record<string, string> {
    return noindex && headers['x-robots-tag'] === undefined ? { ...headers, 'x-robots-tag': 'noindex' } : headers;
  }
}

/** What a bundle answers at a path: a file, the landing page (`/` without an index), a redirect to the folder, or nothing. */
function chooseFile(site: ServedSite, asked: string): ServedFile | 'landing' | 'folder' | 'none' {
  const file = asked.endsWith('/') ? fileAt(site, `${asked}index.html`) : (fileAt(site, asked) ?? (site.cleanUrls ? fileAt(site, `${asked}.html`) : undefined));
  if (file) return file;
  if (!asked.endsWith('/') && fileAt(site, `${asked}/index.html`)) return 'folder';
  if (asked === '/') return 'landing';
  return (site.spa && !hasExtension(asked) && fileAt(site, '/index.html')) || 'none';
}

/**
 * A file answer's headers with X-Robots-Tag on a preview origin and the site's own header rules for the path. A
 * whole file's without rules are made once per file, encoding and origin kind, and shared (see raw-headers.ts).
 */
function fileHeaders(file: ServedFile, answer: FileAnswer, noindex: boolean, rules: ServedSite['headers']): Record<string, string> {
  // A copy streamed from disk carries its own Content-Length: only answers from memory share their headers.
  const key =
    answer.status === 200 && rules.length === 0 && Buffer.isBuffer(answer.body) ? `${answer.headers.etag} ${answer.headers.vary ?? ''} ${noindex}` : undefined;
  const shared = key === undefined ? undefined : file.answerHeaders.get(key);
  if (shared) return shared;
  const headers = answer.headers;
  if (noindex) headers['x-robots-tag'] = 'noindex';
  for (const rule of rules) for (const [name, value] of rule.headers) headers[name] = value;
  if (key !== undefined) file.answerHeaders.set(key, sharedHeaders(headers));
  return headers;
}

/** Sends an answer through Fastify's reply. */
async function send(reply: FastifyReply, answer: Answer): Promise<void> {
  await reply
    .status(answer.status)
    .headers(answer.headers)
    .send(answer.body ?? undefined);
}

function hasExtension(path: string): boolean {
  return path.lastIndexOf('.') > path.lastIndexOf('/') + 1;
}
