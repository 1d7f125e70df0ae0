import { DataSource } from 'typeorm';
import { slugCandidate } from '../../src/apps/slug.js';
import { buildDataSourceOptions } from '../../src/database/data-source-options.js';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres.js';
import { Publishing1763880000000 } from '../../src/database/migrations/1763880000000-publishing.js';
import { MIGRATIONS } from '../../src/database/migrations/index.js';
import { dropFreshResources, freshEnvironment, target } from '../support/fresh-database.js';

// Migration 1763880000000 (Publishing) gives every app that exists when it runs a slug made from its name, in SQL:
// the rule of src/apps/slug.ts frozen as it was then. Here it runs on apps with awkward names, and every slug it
// gives must be the one the live rule gives (slugCandidate, the first candidate no earlier app took).
//
// Migrating up to a migration: TypeORM runs, of the migrations a DataSource lists, those its migrations table lacks.
// A DataSource listing the migrations before Publishing migrates the empty database up to it; a second one listing
// Publishing too then runs only Publishing, as the next version of the server does when it starts on that database.
// (The embedded server is stopped and started again between the two, as it would be: it serves one connection, and
// refuses a new one made at once after the last closed.)

const PUBLISHING = MIGRATIONS.indexOf(Publishing1763880000000);
const LONG = 'The Very Long Name Of An Application, Cut At Forty';
const SIXTY = 'Sixty Characters Of Name: More Than Any Slug Holds, Or Needs';

/** The names that make a slug awkward, each app created a second after the one before (but the last). */
const APPS: Array<{ name: string; createdWithPrevious?: true }> = [
  { name: 'Café Crème' },
  { name: 'Ünïcödé' },
  { name: '!!!' }, // only symbols: `app`
  { name: 'ab' }, // too short: `ab-app`
  { name: '\u0301\u0308 --' }, // nothing left once the marks are stripped: `app`, taken, so `app-2`
  { name: SIXTY },
  { name: 'Twice' },
  { name: 'Twice' },
  { name: 'Recipe Box' },
  { name: 'recipe-box-2' }, // takes `recipe-box-2` before the second Recipe Box can…
  { name: 'Recipe Box' }, // …which gets `recipe-box-3`
  ...Array.from({ length: 11 }, () => ({ name: LONG })), // the tenth and eleventh cut shorter, to leave room for `-10`, `-11`
  { name: 'Same Moment' },
  { name: 'same moment!', createdWithPrevious: true }, // created at the same moment, with the lower id: its slug is `same-moment`
];

/**
 * The rows, in the order they are inserted (created_at order). Their ids run the other way (the first app's is the
 * highest), so neither the ids nor created_at alone, nor the order the rows lie in, gives the slugs created_at, id does.
 */
const ROWS = APPS.map(({ name, createdWithPrevious }, i) => ({
  id: `app_${String(APPS.length - i).padStart(2, '0')}`,
  name,
  createdAt: new Date(Date.UTC(2025, 0, 1) + (createdWithPrevious ? i - 1 : i) * 1000),
}));

/** The live rule's slugs, each app in created_at, id order taking its first candidate not yet taken. */
function liveSlugs(apps: Array<{ id: string; name: string; createdAt: Date }>): Record<string, string> {
  const ordered = [...apps].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  const taken = new Set<string>();
  const slugs: Record<string, string> = {};
  for (const app of ordered) {
    let n = 1;
    while (taken.has(slugCandidate(app.name, n))) n++;
    taken.add(slugCandidate(app.name, n));
    slugs[app.id] = slugCandidate(app.name, n);
  }
  return slugs;
}

describe(`migration 1763880000000 (Publishing): the slugs of existing apps (${target})`, () => {
  let env: Record<string, string>;
  let embedded: EmbeddedPostgres | undefined;

  /** A server whose migrations are the first `count` starts on the database: it runs those not run yet. */
  async function startWith(count: number): Promise<DataSource> {
    if (target === 'embedded') embedded = await EmbeddedPostgres.start(env.DATA_DIR);
    const db = new DataSource({
      ...buildDataSourceOptions({ url: env.DATABASE_URL, socketDir: embedded?.socketDir }),
      migrations: MIGRATIONS.slice(0, count),
    });
    await db.initialize();
    await db.runMigrations({ transaction: 'each' });
    return db;
  }

  async function stop(db: DataSource): Promise<void> {
    await db.destroy();
    await embedded?.stop();
    embedded = undefined;
  }

  beforeAll(async () => {
    env = await freshEnvironment({ migrated: false });
  });

  afterAll(async () => {
    await embedded?.stop();
    if (env) await dropFreshResources(env);
  });

  it('gives each the slug the live rule gives, in created_at, id order', async () => {
    expect(PUBLISHING).toBeGreaterThan(0);
    expect(SIXTY).toHaveLength(60);
    const before = await startWith(PUBLISHING);
    try {
      await before.query(`INSERT INTO accounts (id, email) VALUES ('acc_1', 'owner@example.com')`);
      for (const app of ROWS) {
        await before.query(`INSERT INTO apps (id, account_id, name, created_at) VALUES ($1, 'acc_1', $2, $3)`, [app.id, app.name, app.createdAt]);
      }
    } finally {
      await stop(before);
    }

    const after = await startWith(PUBLISHING + 1);
    try {
      const ran: Array<{ name: string }> = await after.query(`SELECT name FROM migrations ORDER BY id DESC LIMIT 1`);
      expect(ran).toEqual([{ name: 'Publishing1763880000000' }]);
      const rows: Array<{ id: string; slug: string }> = await after.query(`SELECT id, slug FROM apps`);
      const slugs = Object.fromEntries(rows.map((r) => [r.id, r.slug]));
      expect(slugs).toEqual(liveSlugs(ROWS));

      // What that means, for the names above.
      const slugOf = (name: string) => ROWS.filter((r) => r.name === name).map((r) => slugs[r.id]);
      expect(slugOf('Café Crème')).toEqual(['cafe-creme']);
      expect(slugOf('Ünïcödé')).toEqual(['unicode']);
      expect([...slugOf('!!!'), ...slugOf('\u0301\u0308 --'), ...slugOf('ab')]).toEqual(['app', 'app-2', 'ab-app']);
      expect(slugOf(SIXTY)).toEqual(['sixty-characters-of-name-more-than-any-s']);
      expect(slugOf('recipe-box-2')).toEqual(['recipe-box-2']);
      expect(slugOf('Recipe Box').sort()).toEqual(['recipe-box', 'recipe-box-3']);
      expect(slugOf(LONG).sort()).toEqual(
        [
          'the-very-long-name-of-an-application-cut',
          'the-very-long-name-of-an-application-10', // cut to 37, the hyphen it ends with trimmed
          'the-very-long-name-of-an-application-11',
          ...[2, 3, 4, 5, 6, 7, 8, 9].map((n) => `the-very-long-name-of-an-application-c-${n}`),
        ].sort(),
      );
      expect([...slugOf('same moment!'), ...slugOf('Same Moment')]).toEqual(['same-moment', 'same-moment-2']);
    } finally {
      await stop(after);
    }
  });
});
