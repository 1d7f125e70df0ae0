import { Injectable, Logger } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { AppConfig } from './app-config.js';
import { GeneratedSecret, readOrCreateSecret } from './generated-secrets.js';

/**
 * The server's own secrets: from the environment, or in the embedded default (where the config
 * allows them unset) generated once into DATA_DIR and kept there. With PostgreSQL the config
 * requires them, so every instance shares them.
 */
@Injectable()
export class ServerSecrets {
  private readonly logger = new Logger('Secrets');
  private readonly cache = new Map<GeneratedSecret, string>();

  constructor(private readonly config: AppConfig) {}

  /** Encrypts webhook signing secrets at rest. */
  get webhookSecretKey(): string {
    return this.config.WEBHOOK_SECRET_KEY || this.generated('webhook-secret-key', 'the key that encrypts webhook signing secrets');
  }

  /** Signs sign-up form tokens (and portal sessions and CSRF tokens). */
  get sessionSecret(): string {
    return this.config.SESSION_SECRET || this.generated('session-secret', 'the secret that signs form tokens and sessions');
  }

  /** A key for one purpose, derived from the session secret, so one signature never passes for another kind. */
  keyFor(purpose: string): Buffer {
    return createHmac('sha256', this.sessionSecret).update(purpose).digest();
  }

  private generated(name: GeneratedSecret, what: string): string {
    let value = this.cache.get(name);
    if (value === undefined) {
      const secret = readOrCreateSecret(this.config.DATA_DIR, name);
      if (secret.created) this.logger.log(`Generated ${what} in ${secret.file} (readable only by this user)`);
      value = secret.value;
      this.cache.set(name, value);
    }
    return value;
  }
}
