import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The `events` table: the outbox and the public event log in one. A row is written in the same
 * transaction as the change that raised it; `dispatchedAt` is set once the listeners (the webhook
 * fan-out among them) have run. `GET /v1/events` shows the last 30 days.
 */
@Entity('events')
export class StoredEvent {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 40 })
  accountId: string;

  @Column({ type: 'varchar', length: 100 })
  kind: string;

  @Column({ type: 'jsonb' })
  data: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  /** Null until dispatched; the relay looks for these. */
  @Column({ name: 'dispatched_at', type: 'timestamptz', precision: 3, nullable: true })
  dispatchedAt: Date | null;

  /** Dispatches that failed (a listener threw); each is retried by the relay. */
  @Column({ name: 'dispatch_failures', type: 'integer', default: 0 })
  dispatchFailures: number;
}
