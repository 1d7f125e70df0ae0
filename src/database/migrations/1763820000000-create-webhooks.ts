import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks: the endpoints of an account, the event log (`events`), one delivery per event and
 * matching endpoint, and every attempt of a delivery. Deleting an endpoint deletes its deliveries
 * and their attempts; purging an event does too.
 */
export class CreateWebhooks1763820000000 implements MigrationInterface {
  name = 'CreateWebhooks1763820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id                           varchar(40)   PRIMARY KEY,
        account_id                   varchar(40)   NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        url                          varchar(2048) NOT NULL,
        events                       jsonb         NOT NULL,
        description                  varchar(1000),
        status                       varchar(16)   NOT NULL DEFAULT 'Active',
        secret                       varchar(200)  NOT NULL,
        previous_secret              varchar(200),
        previous_secret_expires_at   timestamptz(3),
        created_at                   timestamptz(3) NOT NULL DEFAULT now(),
        updated_at                   timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhook_endpoints_account_created_idx ON webhook_endpoints (account_id, created_at DESC, id DESC)`);
    await q.query(`
      CREATE TABLE events (
        id          varchar(40)    PRIMARY KEY,
        account_id  varchar(40)    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        kind        varchar(100)   NOT NULL,
        data        jsonb          NOT NULL,
        created_at  timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX events_account_created_idx ON events (account_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX events_account_kind_created_idx ON events (account_id, kind, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX events_created_idx ON events (created_at)`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id             varchar(40)    PRIMARY KEY,
        account_id     varchar(40)    NOT NULL,
        endpoint_id    varchar(40)    NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
        event_id       varchar(40)    NOT NULL REFERENCES events(id) ON DELETE CASCADE,
        status         varchar(16)    NOT NULL DEFAULT 'pending',
        attempt_count  integer        NOT NULL DEFAULT 0,
        created_at     timestamptz(3) NOT NULL DEFAULT now(),
        updated_at     timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhook_deliveries_endpoint_created_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id)`);
    await q.query(`CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (created_at) WHERE status = 'pending'`);
    await q.query(`
      CREATE TABLE webhook_attempts (
        id             varchar(40)    PRIMARY KEY,
        delivery_id    varchar(40)    NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        attempt        integer        NOT NULL,
        attempted_at   timestamptz(3) NOT NULL,
        status_code    smallint,
        duration_ms    integer        NOT NULL,
        response_body  varchar(1024),
        error          varchar(500)
      )`);
    await q.query(`CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, attempted_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_attempts`);
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE events`);
    await q.query(`DROP TABLE webhook_endpoints`);
  }
}
