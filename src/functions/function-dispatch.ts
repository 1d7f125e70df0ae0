import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { requestIdOf } from '../common/http/request-id.js';
import { AppConfig } from '../config/app-config.js';
import { DeploymentTokens } from '../auth/deployment-tokens.js';
import { BLOB_STORE, blobKey, type BlobStore } from '../files/blob-store.js';
import type { ServedSite } from '../hosting/served-site.js';
import { SiteDirectory, type SiteLookup } from '../hosting/site-directory.js';
import { readSitePath, type SitePath } from '../hosting/site-paths.js';
import { isDocumentRequest, sightingOf } from '../hosting/page-sighting.js';
import { AnalyticsCollector } from '../analytics/analytics-collector.js';
import { FunctionsMeter } from '../billing/functions-meter.js';
import { codeSourceOf } from './code-source.js';
import { functionPage } from './function-pages.js';
import type { FunctionDeployment, FunctionResponse } from './functions.types.js';
import { EnvVarsService } from './env-vars.service.js';
import { InstancePool } from './instance-pool.js';
import { pickVariant, privateCacheControl, SplitAssignment, withUserAgent } from '../publishing/split-assignment.js';

/**
 * The hosting path's hook for server code (called by the lean site path in src/hosting/site-routes.ts, before any
 * file is looked at): a request to a site origin whose path matches one of the deployment's function routes is
 * streamed to its instance, whatever its method; anything else goes on as before. The platform's paths (`/signup`,
 * `/thanks`, `/_platform/*`) come first because no route may cover them (checked at deploy).
 */
@Injectable()
export class FunctionDispatch {
  private readonly logger = new Logger('Functions');
  /** What the pool needs of a served deployment, made once per ServedSite (it lives as long as its host is cached). */
  private readonly deployments = new WeakMap<ServedSite, FunctionDeployment>();
  private readonly scheme: string;

  constructor(
    private readonly directory: SiteDirectory,
    private readonly pool: InstancePool,
    private readonly config: AppConfig,
    private readonly vars: EnvVarsService,
    private readonly tokens: DeploymentTokens,
    private readonly meter: FunctionsMeter,
    private readonly analytics: AnalyticsCollector,
    private readonly splits: SplitAssignment,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
  ) {
    this.scheme = new URL(config.publicUrl).protocol;
  }

  /**
   * True when it took the request (answering it, or handing it to `next` once the host is looked up); false to let
   * the caller serve it as a site's files.
   */
  take(req: IncomingMessage, res: ServerResponse, label: string, ip: () => string, next: () => void): boolean {
    if (label === '') return false;
    const lookup = this.directory.peek(label);
    if (lookup) return this.route(lookup, req, res, ip, next);
    // Not in memory: looked up, then the function's or handed on (the request's body is still unread).
    this.directory.lookup(label).then(
      (found) => this.route(found, req, res, ip, next) || next(),
      () => next(),
    );
    return true;
  }

  private route(lookup: SiteLookup, req: IncomingMessage, res: ServerResponse, ip: () => string, next: () => void): boolean {
    if (lookup.kind !== 'site') return false;
    const { split } = lookup;
    // Most sites have no server code: they are answered from files without reading the path here.
    if (!lookup.site.functions && !split?.variants.some((site) => site.functions)) return false;
    const path = readSitePath(req.url ?? '/');
    if (typeof path === 'string') return false;
    const noindex = lookup.address !== 'public';
    if (!split) {
      if (!lookup.site.functions?.matches(path.path)) return false;
      void this.dispatch(lookup.site, noindex, req, res, path, ip, false);
      return true;
    }
    // A split test: the visitor's variant answers, its function as its files (SiteServer picks the same variant).
    if (!split.variants.some((site) => site.functions?.matches(path.path))) return false;
    const { appId } = lookup.site.deployment;
    const serveVariant = (visitorId: string): boolean => {
      const site = pickVariant(split, visitorId);
      if (!site.functions?.matches(path.path)) return false;
      void this.dispatch(site, noindex, req, res, path, ip, true);
      return true;
    };
    const visitorId = this.splits.visitorIdNow(appId, ip(), req.headers);
    if (visitorId !== undefined) return serveVariant(visitorId);
    // The day's salt is not read yet: the variant once it is (its files if its path is no function route of it).
    this.splits.visitorId(appId, ip(), req.headers).then(
      (id) => serveVariant(id) || next(),
      () => next(),
    );
    return true;
  }

  private async dispatch(
    site: ServedSite,
    noindex: boolean,
    req: IncomingMessage,
    res: ServerResponse,
    path: SitePath,
    ip: () => string,
    underSplit: boolean,
  ): Promise<void> {
    const started = performance.now();
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    const { accountId } = site.deployment;
    let answer: FunctionResponse;
    let ran = false;
    try {
      const refusal = await this.meter.refusal(accountId);
      if (refusal !== null) {
        // A hard quota of the account's plan is used up: the function does not run until the period renews.
        answer = functionPage(503, { 'retry-after': String(refusal) });
      } else {
        ran = true;
        answer = await this.pool.dispatch(this.deploymentOf(site), {
          method: req.method ?? 'GET',
          url: `${this.scheme}//${req.headers.host}${req.url}`,
          rawHeaders: req.rawHeaders,
          body: hasBody ? req : null,
          clientIp: ip(),
        });
      }
    } catch (err) {
      this.logger.error(`a function request of ${site.deployment.id} failed: ${(err as Error).stack ?? String(err)}`);
      answer = functionPage(502);
    }
    // A page the function made counts as a pageview, as a file's does.
    if (
      ran &&
      req.method === 'GET' &&
      answer.status === 200 &&
      /^text\/html\b/i.test(headerOf(answer.headers, 'content-type') ?? '') &&
      isDocumentRequest(req)
    ) {
      this.analytics.servedPage(sightingOf({ request: req, site, path, ip }));
    }
    try {
      await this.send(answer, req, res, hasBody, noindex, underSplit);
    } finally {
      // Wall time, from the request's arrival to its answer's end (the visitor's leaving included).
      if (ran) this.meter.count(accountId, performance.now() - started);
    }
  }

  private async send(
    answer: FunctionResponse,
    req: IncomingMessage,
    res: ServerResponse,
    hasBody: boolean,
    noindex: boolean,
    underSplit: boolean,
  ): Promise<void> {
    // Under a split test no shared cache may keep one visitor's variant for another (as for files: split-assignment.ts).
    const headers = underSplit ? privateUnderSplit(answer.headers) : [...answer.headers];
    headers.push('x-request-id', requestIdOf(req));
    if (noindex && !hasHeader(answer.headers, 'x-robots-tag')) headers.push('x-robots-tag', 'noindex');
    // A body the function never read (413 from its Content-Length, a page before the instance started): not kept alive.
    if (hasBody && !req.readableEnded && answer.status >= 400 && !hasHeader(answer.headers, 'connection')) headers.push('connection', 'close');
    res.writeHead(answer.status, headers);
    if (req.method === 'HEAD') {
      answer.body.destroy();
      return void res.end();
    }
    await streamTo(answer.body, res);
  }

  private deploymentOf(site: ServedSite): FunctionDeployment {
    let deployment = this.deployments.get(site);
    if (!deployment) {
      const { id, accountId, files } = site.deployment;
      const entry = site.functions!.config.entry;
      deployment = {
        id,
        entry,
        code: codeSourceOf(files ?? {}, entry, (sha256) => this.blobs.get(blobKey(accountId, sha256))),
        // The variables it took at deploy time (secrets opened here, in memory only), and the platform's own: the
        // token is derived from the deployment's id, never stored, and works while the deployment serves.
        env: { ...this.vars.envOf(site.deployment.functionVars), PLATFORM_URL: `${this.config.publicUrl}/v1`, PLATFORM_TOKEN: this.tokens.issue(id) },
      };
      this.deployments.set(site, deployment);
    }
    return deployment;
  }
}

/**
 * Streams a function's answer to the visitor and settles when the response is done with, as `pipeline()` would here
 * without the AbortController and DOMException it makes per call (a tenth of a function request's CPU in the bench):
 * a visitor who leaves stops the answer (its instance's request ends too), and an answer that breaks off (the instance
 * ended mid-answer) cuts the visitor's connection rather than leaving it waiting. Never rejects.
 */
function streamTo(body: Readable, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    body.once('error', () => res.destroy());
    res.on('error', () => body.destroy()); // (a listener of its own: pipe() would rethrow a response's error)
    // Emitted once the answer is complete, or when its connection ends before.
    res.once('close', () => {
      if (!body.readableEnded) body.destroy();
      resolve();
    });
    body.pipe(res);
  });
}

/** A function's flat headers with the split's Cache-Control (private) and Vary (User-Agent) in place of its own. */
function privateUnderSplit(flat: readonly string[]): string[] {
  const rest: string[] = [];
  for (let i = 0; i < flat.length; i += 2) {
    const name = flat[i].toLowerCase();
    if (name !== 'cache-control' && name !== 'vary') rest.push(flat[i], flat[i + 1]);
  }
  return [...rest, 'cache-control', privateCacheControl(headerOf(flat, 'cache-control')), 'vary', withUserAgent(headerOf(flat, 'vary'))];
}

function hasHeader(flat: readonly string[], name: string): boolean {
  return headerOf(flat, name) !== undefined;
}

function headerOf(flat: readonly string[], name: string): string | undefined {
  for (let i = 0; i < flat.length; i += 2) if (flat[i].toLowerCase() === name) return flat[i + 1];
  return undefined;
}
