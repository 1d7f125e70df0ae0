import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export type WebhookEndpointStatus = 'Active' | 'Disabled';
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** A receiver URL of an account and the event kinds it wants. */
@Entity('webhook_endpoints')
export class WebhookEndpoint {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 40 })
  accountId: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  /** Filters: `*`, `user.*`, or exact kinds. */
  @Column({ type: 'jsonb' })
  events: string[];

  @Column({ type: 'varchar', length: 1000, nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: WebhookEndpointStatus;

  /** The signing secret (`whsec_…`), sealed by SecretBox (AES-256-GCM when WEBHOOK_SECRET_KEY is set). */
  @Column({ type: 'varchar', length: 200 })
  secret: string;

  /** The secret before the last rotation (sealed), still signing until previousSecretExpiresAt. */
  @Column({ name: 'previous_secret', type: 'varchar', length: 200, nullable: true })
  previousSecret: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', precision: 3, nullable: true })
  previousSecretExpiresAt: Date | null;

  /** Why the service disabled it (a 410, or failing for WEBHOOK_DISABLE_AFTER); null when enabled or disabled by hand. */
  @Column({ name: 'disabled_reason', type: 'varchar', length: 300, nullable: true })
  disabledReason?: string | null;

  /** The first failed attempt since its last success; null while its deliveries succeed. */
  @Column({ name: 'failing_since', type: 'timestamptz', precision: 3, nullable: true })
  failingSince?: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}

/**
 * One event to one endpoint; tried again on the retry schedule until it succeeds or runs out of
 * attempts. While pending, `nextAttemptAt` says when its next try is due (the database, not the
 * queue, is what says so) and `attemptingUntil` is the lease of a try under way.
 */
@Entity('webhook_deliveries')
export class WebhookDelivery {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 40 })
  accountId: string;

  @Column({ name: 'endpoint_id', type: 'varchar', length: 40 })
  endpointId: string;

  @Column({ name: 'event_id', type: 'varchar', length: 40 })
  eventId: string;

  @Column({ type: 'varchar', length: 16 })
  status: DeliveryStatus;

  @Column({ name: 'attempt_count', type: 'integer' })
  attemptCount: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', precision: 3, nullable: true })
  nextAttemptAt?: Date | null;

  @Column({ name: 'attempting_until', type: 'timestamptz', precision: 3, nullable: true })
  attemptingUntil?: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}

/** One HTTP try of a delivery. */
@Entity('webhook_attempts')
export class WebhookAttempt {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Column({ name: 'delivery_id', type: 'varchar', length: 40 })
  deliveryId: string;

  @Column({ type: 'integer' })
  attempt: number;

  @Column({ name: 'attempted_at', type: 'timestamptz', precision: 3 })
  attemptedAt: Date;

  @Column({ name: 'status_code', type: 'smallint', nullable: true })
  statusCode: number | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;

  @Column({ name: 'response_body', type: 'varchar', length: 1024, nullable: true })
  responseBody: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;

  /** When the try after this one was due, as scheduled after it; null when none was. */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', precision: 3, nullable: true })
  nextAttemptAt?: Date | null;
}
