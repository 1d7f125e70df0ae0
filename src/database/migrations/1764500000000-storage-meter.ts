import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The `storage.bytes` meter: what each account's kept files take, as one counter row per account
 * (`account_storage`) that triggers on `files` keep equal to the sum of its rows' sizes — a row
 * inserted adds its size, rows deleted (the sweep, an app's deletion, an account's) take theirs away,
 * in the same transaction, whatever code path writes the table. Files are deduplicated by hash per
 * account there already, so a file uploaded twice counts once.
 *
 * An upload holds its bytes first (a quota hold, `quota_reservations`, `held_for` its hash: one per
 * account, meter and file); the insert of its row deletes the hold in the same statement, so a file is
 * counted once, in the hold or in the counter, never both.
 */
export class StorageMeter1764500000000 implements MigrationInterface {
  name = 'StorageMeter1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE account_storage (
        account_id  varchar(40) PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        bytes       bigint      NOT NULL DEFAULT 0
      )`);
    await q.query(`ALTER TABLE quota_reservations ADD COLUMN held_for varchar(64)`);
    await q.query(`CREATE UNIQUE INDEX quota_reservations_held_for_idx ON quota_reservations (account_id, meter, held_for) WHERE held_for IS NOT NULL`);
    await q.query(`
      CREATE FUNCTION files_storage_added() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO account_storage AS s (account_id, bytes) VALUES (NEW.account_id, NEW.size)
          ON CONFLICT (account_id) DO UPDATE SET bytes = s.bytes + EXCLUDED.bytes;
        DELETE FROM quota_reservations WHERE account_id = NEW.account_id AND meter = 'storage.bytes' AND held_for = NEW.sha256;
        RETURN NULL;
      END
      $$`);
    // Per statement: the sweep deletes 500 rows of many accounts at once; their counters are locked in one order (no deadlock between two sweeps).
    await q.query(`
      CREATE FUNCTION files_storage_removed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM 1 FROM account_storage WHERE account_id IN (SELECT account_id FROM removed) ORDER BY account_id FOR UPDATE;
        UPDATE account_storage s SET bytes = s.bytes - r.bytes
          FROM (SELECT account_id, sum(size) AS bytes FROM removed GROUP BY account_id) r
         WHERE s.account_id = r.account_id;
        RETURN NULL;
      END
      $$`);
    // Triggers first, then the count of what is there: an upload meanwhile waits for this transaction (the trigger's lock on files).
    await q.query(`CREATE TRIGGER files_storage_added AFTER INSERT ON files FOR EACH ROW EXECUTE FUNCTION files_storage_added()`);
    await q.query(
      `CREATE TRIGGER files_storage_removed AFTER DELETE ON files REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION files_storage_removed()`,
    );
    await q.query(`INSERT INTO account_storage (account_id, bytes) SELECT account_id, sum(size) FROM files GROUP BY account_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER files_storage_removed ON files`);
    await q.query(`DROP TRIGGER files_storage_added ON files`);
    await q.query(`DROP FUNCTION files_storage_removed()`);
    await q.query(`DROP FUNCTION files_storage_added()`);
    await q.query(`DELETE FROM quota_reservations WHERE held_for IS NOT NULL`);
    await q.query(`DROP INDEX quota_reservations_held_for_idx`);
    await q.query(`ALTER TABLE quota_reservations DROP COLUMN held_for`);
    await q.query(`DROP TABLE account_storage`);
  }
}
