import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * App hosting: a deployment may carry the app's own files. `deployments.files` maps each path to the
 * SHA-256 of its content (`{ "/index.html": "<sha256>" }`), with its count and total bytes beside it
 * (read without the map), and `config` the site's settings (SPA fallback, clean URLs, redirects,
 * headers). The contents are blobs in the blob store (a folder or S3), keyed `<account>/<sha256>`;
 * `files` lists what each account uploaded.
 *
 * `files.created_at` is the last upload (uploading a file again restarts its 24 h); `referenced` says
 * a live deployment points at it. Deployments are immutable and go only with their app, so the flag
 * is set by a deploy and cleared only when an app's deletion leaves a file unreferenced: the sweep of
 * unreferenced files older than 24 h reads the partial index, never the manifests.
 */
export class DeploymentFiles1763940000000 implements MigrationInterface {
  name = 'DeploymentFiles1763940000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE deployments
        ADD COLUMN files       jsonb  NULL,
        ADD COLUMN files_count int    NOT NULL DEFAULT 0,
        ADD COLUMN files_bytes bigint NOT NULL DEFAULT 0,
        ADD COLUMN config      jsonb  NULL`);
    await q.query(`
      CREATE TABLE files (
        account_id  varchar(40) NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        sha256      char(64)    NOT NULL,
        size        bigint      NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        referenced  boolean     NOT NULL DEFAULT false,
        PRIMARY KEY (account_id, sha256)
      )`);
    await q.query(`CREATE INDEX files_unreferenced_idx ON files (created_at) WHERE NOT referenced`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE files`);
    await q.query(`ALTER TABLE deployments DROP COLUMN files, DROP COLUMN files_count, DROP COLUMN files_bytes, DROP COLUMN config`);
  }
}
