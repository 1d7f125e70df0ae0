import { Inject, Injectable } from '@nestjs/common';
import { AppAddresses } from '../apps/app-addresses.js';
import { AppsService } from '../apps/apps.service.js';
import { Meters } from '../billing/meters.js';
import { RequestError } from '../common/errors/request-errors.js';
import { newId } from '../common/ids.js';
import { Page, PageRequest, toPage } from '../common/pagination/page.js';
import { AppConfig } from '../config/app-config.js';
import { Transactions } from '../database/transactions.js';
import { DomainEvents } from '../events/domain-events.service.js';
import { BLOB_STORE, blobKey, type BlobStore } from '../files/blob-store.js';
import { FilesService } from '../files/files.service.js';
import { codeSourceOf } from '../functions/code-source.js';
import { EnvVarsService } from '../functions/env-vars.service.js';
import { InstancePool } from '../functions/instance-pool.js';
import { defaultLandingPage } from '../landing-pages/landing-page.js';
import { LandingPagesService } from '../landing-pages/landing-pages.service.js';
import { landingPageOf, snapshotOf } from './deployment-snapshot.js';
import { Deployment } from './deployment.entity.js';
import { DeploymentsError } from './deployments.errors.js';
import { DeploymentsRepository } from './deployments.repository.js';
import { DeployDto, DeployResultDto } from './dto/deploy.dto.js';
import { type Manifest, MAX_BUNDLE_BYTES, parseManifest } from './manifest.js';
import type { SiteConfig } from './site-config.js';
import { parseSiteConfig } from './site-config-rules.js';
import { DeploymentDto } from './dto/deployment.dto.js';

@Injectable()
export class DeploymentsService {
  constructor(
    private readonly db: Transactions,
    private readonly deployments: DeploymentsRepository,
    private readonly apps: AppsService,
    private readonly landingPages: LandingPagesService,
    private readonly events: DomainEvents,
    private readonly config: AppConfig,
    private readonly meters: Meters,
    private readonly addresses: AppAddresses,
    private readonly files: FilesService,
    private readonly functions: InstancePool,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    private readonly vars: EnvVarsService,
  ) {}

  /**
   * Snapshots the app as it is now, with the files of `input.files` if any, and serves it at `url`.
   * Emits `deployment.succeeded`; metered (`deployments`, 402 past a hard quota). A 4xx stores nothing.
   */
  async deploy(accountId: string, input: DeployDto): Promise<DeployResultDto> {
    const { manifest, config } = this.checkBundle(input);
    if (manifest && config?.functions) await this.checkFunction(accountId, manifest.files, config.functions.entry);
    return this.db.run(async () => {
      // One round trip for both reads (see Transactions): the app, locked, then its saved page (unused if the app is not the caller's).
      const [app, savedPage] = await Promise.all([this.apps.requireOwnedForBody(accountId, input.appId), this.landingPages.savedPage(input.appId)]);
      await this.meters.assertRoom(accountId, 'deployments'); // 402 before anything is written
      const bundle = manifest ? await this.claimFiles(accountId, manifest) : undefined;
      const snapshot = snapshotOf(app, savedPage ?? defaultLandingPage(app));
      // Server code takes its environment's variables as they are now (a change applies from the next deploy).
      const functionVars = bundle && config?.functions ? await this.vars.snapshot(app.id, input.env) : null;
      const deployment = this.deployments.insert({
        id: newId('dep'),
        accountId,
        appId: app.id,
        env: input.env,
        snapshot,
        ...(bundle && manifest ? { files: manifest.files, filesCount: bundle.count, filesBytes: bundle.bytes, config: config ?? null, functionVars } : {}),
      });
      const result = this.toResult(deployment);
      const { deploymentId, appId, env, url, createdAt, files, config: served } = result;
      await this.events.raise('deployment.succeeded', accountId, {
        deploymentId,
        appId,
        env,
        url,
        createdAt,
        ...(files ? { files, config: served ?? null } : {}),
      });
      await this.meters.record(accountId, 'deployments', 1, result.deploymentId);
      return result;
    });
  }

  /** The checks of a deploy's files and config that need no database: 400s before the transaction. */
  private checkBundle(input: DeployDto): { manifest?: Manifest; config?: SiteConfig } {
    if (input.files === undefined) {
      if (input.config !== undefined) throw RequestError.invalid(['config applies to files: send files with it']);
      return {};
    }
    const manifest = parseManifest(input.files);
    const config = input.config === undefined ? undefined : parseSiteConfig(input.config);
    if (this.addresses.siteOrigin('probe') === undefined) throw DeploymentsError.sitesDomainRequired();
    return { manifest, config };
  }

  /**
   * The server code loads once, in a throwaway instance, before anything is written (outside the transaction: a
   * load takes a Deno start). A file not uploaded is left to the transaction's `files_missing`.
   */
  private async checkFunction(accountId: string, files: Record<string, string>, entry: string): Promise<void> {
    let missing = false;
    const code = codeSourceOf(files, entry, async (sha256) => {
      const bytes = await this.blobs.get(blobKey(accountId, sha256));
      if (!bytes) missing = true;
      return bytes;
    });
    const check = await this.functions.validate({ entry, code, env: {} });
    if (!check.ok && !missing) throw DeploymentsError.functionInvalid(entry, check.message);
  }

  /** Inside the deploy's transaction: every hash must be one of the account's files (locked until the commit), 500 MiB at most in all. */
  private async claimFiles(accountId: string, manifest: Manifest): Promise<{ count: number; bytes: number }> {
    const { sizes, missing } = await this.files.claim(accountId, manifest.hashes);
    if (missing.length > 0) throw DeploymentsError.filesMissing(missing);
    let bytes = 0;
    let count = 0;
    for (const path in manifest.files) {
      bytes += sizes.get(manifest.files[path])!;
      count++;
    }
    if (bytes > MAX_BUNDLE_BYTES) throw DeploymentsError.bundleTooLarge(bytes);
    this.files.markReferenced(accountId, manifest.hashes);
    return { count, bytes };
  }

  async get(accountId: string, deploymentId: string): Promise<DeploymentDto> {
    const deployment = await this.deployments.findOwned(accountId, deploymentId);
    if (!deployment) throw DeploymentsError.notFound(deploymentId);
    return this.toDto(deployment);
  }

  async listForApp(accountId: string, appId: string, page: PageRequest): Promise<Page<DeploymentDto>> {
    await this.apps.requireOwned(accountId, appId);
    return toPage(await this.deployments.listForApp(appId, page), page, (d) => this.toDto(d));
  }

  /** For the public pages: any account's deployment, by its (unguessable) id. */
  findServable(deploymentId: string): Promise<Deployment | null> {
    return this.deployments.findById(deploymentId);
  }

  /** A deployment of this app (of any account's: the caller checked the app), or null. */
  async findOfApp(appId: string, deploymentId: string): Promise<Deployment | null> {
    const deployment = await this.deployments.findById(deploymentId);
    return deployment?.appId === appId ? deployment : null;
  }

  /** For the public alias /sites/<appId>/<env>/: the newest deployment there. */
  findNewestServable(appId: string, env: string): Promise<Deployment | null> {
    return this.deployments.findNewest(appId, env);
  }

  /** A landing page alone: `{PUBLIC_URL}/sites/<id>/`. With files: the deployment's own origin (the API's origin redirects there). */
  urlOf(deploymentId: string, withFiles = false): string {
    const origin = withFiles ? this.addresses.siteOrigin(this.addresses.siteLabel(deploymentId)) : undefined;
    return origin ? `${origin}/` : `${this.config.publicUrl}/sites/${deploymentId}/`;
  }

  /** The deploy's answer (and event): with files, also what they come to and how they are served. */
  private toResult(d: Deployment): DeployResultDto {
    const withFiles = d.filesCount > 0;
    const result: DeployResultDto = {
      status: d.status,
      deploymentId: d.id,
      url: this.urlOf(d.id, withFiles),
      appId: d.appId,
      env: d.env,
      createdAt: d.createdAt.toISOString(),
    };
    return withFiles ? { ...result, files: { count: d.filesCount, bytes: d.filesBytes }, config: d.config } : result;
  }

  private toDto(d: Deployment): DeploymentDto {
    return {
      ...this.toResult(d),
      snapshot: { name: d.snapshot.app.name, description: d.snapshot.app.description, landingPage: landingPageOf(d.snapshot) },
      ...(d.config?.functions ? { variables: (d.functionVars ?? []).map((v) => v.name) } : {}),
    };
  }
}
