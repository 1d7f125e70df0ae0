import { Injectable } from '@nestjs/common';
import { newId } from '../common/ids.js';
import { AuditLog } from '../audit/audit-log.service.js';
import type { Actor } from '../common/request-context/actor.js';
import { encodeCursor, Page, PageRequest, toPage } from '../common/pagination/page.js';
import { isUniqueViolation } from '../database/postgres-errors.js';
import { Transactions } from '../database/transactions.js';
import type { AppChange } from '../events/domain-events.js';
import { DomainEvents } from '../events/domain-events.service.js';
import { App, AppVisibility } from './app.entity.js';
import { AppAddresses } from './app-addresses.js';
import { AppErasure } from './app-erasure.js';
import { AppsError } from './apps.errors.js';
import { AppsRepository } from './apps.repository.js';
import { AppDto, toAppDto } from './dto/app.dto.js';
import { slugCandidate } from './slug.js';

/** A given-up slug stays held for its account this long (and redirects to its app, if the app was renamed). */
export const SLUG_REDIRECT_MS = 30 * 24 * 3600 * 1000;
/** Default slugs tried before giving up (`name`, `name-2`, … `name-50`). */
const SLUG_CANDIDATES = 50;

export interface AppChanges {
  name?: string;
  description?: string | null;
  slug?: string;
  visibility?: AppVisibility;
}

const CHANGEABLE = ['name', 'description', 'slug', 'visibility'] as const;

/** What the catalogue lists of a published public app. */
export interface CatalogEntry {
  slug: string;
  name: string;
  description: string | null;
  publicUrl: string;
  publishedAt: string;
}

@Injectable()
export class AppsService {
  constructor(
    private readonly db: Transactions,
    private readonly apps: AppsRepository,
    private readonly events: DomainEvents,
    private readonly erasure: AppErasure,
    private readonly addresses: AppAddresses,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Creates an app with the slug asked for (taken: 409) or one made from its name. A slug the
   * account's deleted app left held is the account's to reuse. Emits `app.created`.
   */
  async create(accountId: string, input: { name: string; description?: string | null; slug?: string; visibility?: AppVisibility }): Promise<AppDto> {
    const attempt = (slug: string) =>
      this.db.run(async () => {
        if (await this.apps.slugTaken(slug, accountId)) return null;
        await this.apps.dropRedirect(slug);
        const dto = this.toDto(
          await this.apps.insert({
            id: newId('app'),
            accountId,
            name: input.name,
            description: input.description ?? null,
            slug,
            visibility: input.visibility ?? 'unlisted',
          }),
        );
        await this.events.raise('app.created', accountId, dto);
        return dto;
      });
    if (input.slug && this.addresses.isReservedSlug(input.slug)) throw AppsError.slugReserved(input.slug);
    const candidates = input.slug
      ? [input.slug]
      : Array.from({ length: SLUG_CANDIDATES }, (_, i) => slugCandidate(input.name, i + 1)).filter((slug) => !this.addresses.isReservedSlug(slug));
    for (const slug of candidates) {
      // Two creations may race for one slug: the unique index decides, and the loser tries the next.
      const dto = await attempt(slug).catch((err: unknown) => {
        if (isUniqueViolation(err)) return null;
        throw err;
      });
      if (dto) return dto;
    }
    throw AppsError.slugTaken(candidates[0]);
  }

  async list(accountId: string, page: PageRequest): Promise<Page<AppDto>> {
    return toPage(await this.apps.list(accountId, page), page, (app) => this.toDto(app));
  }

  async get(accountId: string, appId: string): Promise<AppDto> {
    return this.toDto(await this.requireOwned(accountId, appId));
  }

  /**
   * Changes the fields sent. A new slug must be free (409); the old one redirects to the app for 30
   * days. Emits `app.updated` with what changed and the values before.
   */
  async update(accountId: string, appId: string, changes: AppChanges): Promise<AppDto> {
    const fields = CHANGEABLE.filter((f) => changes[f] !== undefined);
    if (fields.length === 0) throw AppsError.nothingToUpdate([...CHANGEABLE]);
    try {
      return await this.db.run(async () => {
        const row = await this.apps.findOwnedForUpdate(accountId, appId);
        if (!row) throw AppsError.notFound(appId);
        const previous: AppChanges = {};
        for (const field of fields) {
          if (row[field] === changes[field]) continue;
          Object.assign(previous, { [field]: row[field] });
          Object.assign(row, { [field]: changes[field] });
        }
        // Nothing differs: no write, no event.
        if (Object.keys(previous).length === 0) return this.toDto(row);
        if (previous.slug !== undefined) await this.moveSlug(row, previous.slug);
        const dto = this.toDto(await this.apps.save(row));
        await this.events.raise('app.updated', accountId, { ...dto, changed: Object.keys(previous) as AppChange[], previousAttributes: previous });
        return dto;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppsError.slugTaken(changes.slug ?? '');
      throw err;
    }
  }

  /**
   * In the caller's transaction: something hung on the app (its landing page) changed. The app's
   * `updatedAt` moves and `app.updated` says what changed.
   */
  async touch(accountId: string, appId: string, changed: AppChange): Promise<AppDto> {
    const row = await this.apps.findOwnedForUpdate(accountId, appId);
    if (!row) throw AppsError.notFound(appId);
    row.updatedAt = new Date();
    const dto = this.toDto(await this.apps.save(row));
    await this.events.raise('app.updated', accountId, { ...dto, changed: [changed], previousAttributes: {} });
    return dto;
  }

  /**
   * In the caller's transaction (the app locked by `lockOwned`): the public address now serves this
   * deployment. Emits `app.published` with the deployment it served before (a rollback is publishing
   * an older one).
   */
  async markPublished(app: App, deploymentId: string): Promise<AppDto> {
    const previousDeploymentId = app.publishState === 'published' ? app.publishedDeploymentId : null;
    Object.assign(app, { publishState: 'published', publishedDeploymentId: deploymentId, publishedAt: new Date() });
    const dto = this.toDto(await this.apps.save(app));
    await this.events.raise('app.published', app.accountId, { appId: app.id, deploymentId, previousDeploymentId, publicUrl: dto.publicUrl! });
    return dto;
  }

  /** In the caller's transaction: the public address answers 410 from now on. Emits `app.unpublished`. */
  async markUnpublished(app: App): Promise<AppDto> {
    if (app.publishState !== 'published') throw AppsError.notPublished(app.id);
    Object.assign(app, { publishState: 'unpublished', publishedDeploymentId: null, publishedAt: null });
    const dto = this.toDto(await this.apps.save(app));
    await this.events.raise('app.unpublished', app.accountId, { appId: app.id });
    return dto;
  }

  /**
   * Deletes the app with everything hung on it, in one transaction: each module that holds its data
   * erases it (users are erased as by DELETE /v1/users/:id, one `user.deleted` each), then the row
   * goes and its deployments with it (their pages stop being served). Its slug, and the old slugs
   * it still redirected from, stay held for the account for 30 days (their addresses answer 404):
   * nobody else can put a look-alike at an address its visitors know.
   */
  async delete(accountId: string, actor: Actor, appId: string): Promise<void> {
    await this.db.run(async () => {
      const app = await this.apps.findOwnedForUpdate(accountId, appId);
      if (!app) throw AppsError.notFound(appId);
      await this.erasure.run(accountId, appId);
      await this.apps.saveRedirect(app.slug, { appId: null, accountId, expiresAt: new Date(Date.now() + SLUG_REDIRECT_MS) });
      // Its old slugs' holds lose their app (ON DELETE SET NULL) and keep their own expiry.
      await this.apps.delete(accountId, appId);
      await this.events.raise('app.deleted', accountId, { appId });
      await this.audit.record(accountId, actor, 'app.deleted', appId);
    });
  }

  /** The catalogue: published public apps, newest publication first, in the list shape. */
  async catalog(page: PageRequest): Promise<Page<CatalogEntry>> {
    const rows = await this.apps.listCatalog(page.limit, page.after);
    const shown = rows.slice(0, page.limit);
    const last = shown[shown.length - 1];
    return {
      data: shown.map((app) => ({
        slug: app.slug,
        name: app.name,
        description: app.description,
        publicUrl: this.addresses.publicUrl(app.slug),
        publishedAt: app.publishedAt!.toISOString(),
      })),
      nextCursor: rows.length > page.limit && last ? encodeCursor({ createdAt: last.publishedAt!, id: last.id }) : null,
    };
  }

  /**
   * What a public address names: the app with this slug, or the app that gave the slug up in the
   * last 30 days (`movedTo` its current slug), or nothing (a deleted app's slug included).
   */
  async resolveSlug(slug: string): Promise<{ app: App } | { movedTo: string } | null> {
    const app = await this.apps.findBySlug(slug);
    if (app) return { app };
    const redirect = await this.apps.findRedirect(slug);
    if (!redirect?.appId) return null;
    const target = await this.apps.findById(redirect.appId);
    return target ? { movedTo: target.slug } : null;
  }

  /** The app with this id, whoever owns it (for what is reached without credentials: a custom domain, the worker). */
  byId(appId: string): Promise<App | null> {
    return this.apps.findById(appId);
  }

  /** Whether an app with this id exists (for unauthenticated callers that name one: analytics collection). */
  async exists(appId: string): Promise<boolean> {
    return (await this.apps.findById(appId)) !== null;
  }

  /** For a 404 on a path id: the app, if the account owns it. */
  async requireOwned(accountId: string, appId: string): Promise<App> {
    const app = await this.apps.findOwned(accountId, appId);
    if (!app) throw AppsError.notFound(appId);
    return app;
  }

  /** For a change hung on the app in the caller's transaction (publishing): the app, locked FOR UPDATE; 404 otherwise. */
  async lockOwned(accountId: string, appId: string): Promise<App> {
    const app = await this.apps.findOwnedForUpdate(accountId, appId);
    if (!app) throw AppsError.notFound(appId);
    return app;
  }

  /**
   * For a body field `appId` (deploy, sign a user up): the caller's app, share-locked in the caller's
   * transaction so it is not deleted under the new row; a 400 naming the field otherwise.
   */
  async requireOwnedForBody(accountId: string, appId: string): Promise<App> {
    const app = await this.apps.findOwnedForShare(accountId, appId);
    if (!app) throw AppsError.notYours(appId);
    return app;
  }

  /** For a query filter `appId`: a 400 naming the field unless it is one of the caller's apps. */
  async requireOwnedForFilter(accountId: string, appId: string): Promise<App> {
    const app = await this.apps.findOwned(accountId, appId);
    if (!app) throw AppsError.notYours(appId);
    return app;
  }

  /** Where an app with this slug is (or would be) published. */
  publicUrlOf(slug: string): string {
    return this.addresses.publicUrl(slug);
  }

  toDto(app: App): AppDto {
    return toAppDto(app, (slug) => this.addresses.publicUrl(slug));
  }

  /** The app moves from `oldSlug` to its new one: the new one must be free for it; the old one redirects here for 30 days. */
  private async moveSlug(app: App, oldSlug: string): Promise<void> {
    if (this.addresses.isReservedSlug(app.slug)) throw AppsError.slugReserved(app.slug);
    if (await this.apps.slugTaken(app.slug, app.accountId, app.id)) throw AppsError.slugTaken(app.slug);
    await this.apps.dropRedirect(app.slug);
    await this.apps.saveRedirect(oldSlug, { appId: app.id, accountId: app.accountId, expiresAt: new Date(Date.now() + SLUG_REDIRECT_MS) });
  }
}
