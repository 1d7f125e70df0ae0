import { Injectable } from '@nestjs/common';
import { MoreThan } from 'typeorm';
import type { Keyset, PageRequest } from '../common/pagination/page.js';
import { insertRow } from '../database/insert-row.js';
import { Transactions } from '../database/transactions.js';
import { App, SlugRedirect } from './app.entity.js';

interface AppRow {
  id: string;
  account_id: string;
  name: string;
  description: string | null;
  slug: string;
  visibility: App['visibility'];
  publish_state: App['publishState'];
  published_deployment_id: string | null;
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const APP_COLUMNS = 'id, account_id, name, description, slug, visibility, publish_state, published_deployment_id, published_at, created_at, updated_at';

function fromRow(r: AppRow): App {
  return {
    id: r.id,
    accountId: r.account_id,
    name: r.name,
    description: r.description,
    slug: r.slug,
    visibility: r.visibility,
    publishState: r.publish_state,
    publishedDeploymentId: r.published_deployment_id,
    publishedAt: r.published_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The apps table, and the slugs apps gave up, renamed or deleted (slug_redirects). Inside `Transactions.run()` every method runs in that transaction. */
@Injectable()
export class AppsRepository {
  constructor(private readonly db: Transactions) {}

  private get apps() {
    return this.db.manager.getRepository(App);
  }

  insert(app: Pick<App, 'id' | 'accountId' | 'name' | 'description' | 'slug' | 'visibility'>): Promise<App> {
    return insertRow(this.db.manager, App, { ...app, publishState: 'draft', publishedDeploymentId: null, publishedAt: null });
  }

  findOwned(accountId: string, id: string): Promise<App | null> {
    return this.apps.findOneBy({ accountId, id });
  }

  findById(id: string): Promise<App | null> {
    return this.apps.findOneBy({ id });
  }

  findBySlug(slug: string): Promise<App | null> {
    return this.apps.findOneBy({ slug });
  }

  /** FOR UPDATE: the row to change. */
  findOwnedForUpdate(accountId: string, id: string): Promise<App | null> {
    return this.apps.createQueryBuilder('app').setLock('pessimistic_write').where('app.accountId = :accountId AND app.id = :id', { accountId, id }).getOne();
  }

  /** FOR SHARE: the app stays until the caller commits what it hangs on it (a deployment, a user). */
  async findOwnedForShare(accountId: string, id: string): Promise<App | null> {
    const [row] = await this.db.query<AppRow>(`SELECT ${APP_COLUMNS} FROM apps WHERE account_id = $1 AND id = $2 FOR SHARE`, [accountId, id]);
    return row ? fromRow(row) : null;
  }

  /**
   * The hottest read of the API (docs/decisions/2026-11-22-plain-sql-hot-paths.md): one plain SQL statement, rows mapped by hand, because
   * TypeORM's query building and entity hydration cost more than the query itself here. Same keyset
   * as applyKeyset: (created_at, id) descending, one row more than the limit.
   */
  async list(accountId: string, page: PageRequest): Promise<App[]> {
    const after = page.after ? 'AND (created_at, id) < ($3, $4)' : '';
    const rows = await this.db.query<AppRow>(
      `SELECT ${APP_COLUMNS} FROM apps WHERE account_id = $1 ${after} ORDER BY created_at DESC, id DESC LIMIT $2`,
      page.after ? [accountId, page.limit + 1, page.after.createdAt, page.after.id] : [accountId, page.limit + 1],
    );
    return rows.map(fromRow);
  }

  /** Published public apps, newest publication first, for the catalogue (keyset on published_at, id). */
  async listCatalog(limit: number, after?: Keyset): Promise<App[]> {
    const rows = await this.db.query<AppRow>(
      `SELECT ${APP_COLUMNS} FROM apps WHERE publish_state = 'published' AND visibility = 'public'
         ${after ? 'AND (published_at, id) < ($2, $3)' : ''}
       ORDER BY published_at DESC, id DESC LIMIT $1`,
      after ? [limit + 1, after.createdAt, after.id] : [limit + 1],
    );
    return rows.map(fromRow);
  }

  save(app: App): Promise<App> {
    return this.apps.save(app);
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    const result = await this.apps.delete({ accountId, id });
    return (result.affected ?? 0) > 0;
  }

  /**
   * Whether `accountId` may not take the slug (for `exceptAppId`, if given): it is another app's
   * now, or held less than 30 days after another app gave it up — unless it is held for this
   * account because its app was deleted.
   */
  async slugTaken(slug: string, accountId: string, exceptAppId?: string): Promise<boolean> {
    const rows = await this.db.query<unknown>(
      `SELECT 1 FROM apps WHERE slug = $1 AND id IS DISTINCT FROM $2
       UNION ALL SELECT 1 FROM slug_redirects WHERE slug = $1 AND expires_at > now()
         AND (app_id IS NULL AND account_id <> $3 OR app_id IS NOT NULL AND app_id IS DISTINCT FROM $2)
       LIMIT 1`,
      [slug, exceptAppId ?? null, accountId],
    );
    return rows.length > 0;
  }

  /** The hold on a given-up slug, while it lasts (its `appId` null if the app was deleted). */
  findRedirect(slug: string): Promise<SlugRedirect | null> {
    return this.db.manager.getRepository(SlugRedirect).findOneBy({ slug, expiresAt: MoreThan(new Date()) });
  }

  /**
   * An app gave up `slug`: held for its account until `expiresAt`, redirecting to the app while it
   * exists, or (`appId` null) answering 404 for a deleted one. Replaces an expired hold of anyone's.
   */
  async saveRedirect(slug: string, hold: { appId: string | null; accountId: string; expiresAt: Date }): Promise<void> {
    await this.db.query(
      `INSERT INTO slug_redirects (slug, app_id, account_id, expires_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (slug) DO UPDATE SET app_id = EXCLUDED.app_id, account_id = EXCLUDED.account_id, expires_at = EXCLUDED.expires_at`,
      [slug, hold.appId, hold.accountId, hold.expiresAt],
    );
  }

  /** The app takes a slug (back): no redirect may point elsewhere from it. */
  async dropRedirect(slug: string): Promise<void> {
    await this.db.manager.getRepository(SlugRedirect).delete({ slug });
  }
}
