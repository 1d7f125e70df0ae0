import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppConfig } from '../config/app-config.js';
import { readOrCreateSecret } from '../config/generated-secrets.js';

/**
 * Holds the admin token: ADMIN_TOKEN, or in the embedded default one generated on first start
 * and kept in DATA_DIR/admin-token (mode 0600). Only the file's path is ever logged.
 */
@Injectable()
export class AdminTokenService implements OnModuleInit {
  private readonly logger = new Logger('AdminToken');
  private digest?: Buffer;

  constructor(private readonly config: AppConfig) {}

  onModuleInit(): void {
    const token = this.config.ADMIN_TOKEN ?? (this.config.embeddedDatabase ? this.readOrCreateTokenFile() : undefined);
    if (!token) {
      this.logger.warn('ADMIN_TOKEN is not set: /v1/admin routes answer 401 until it is');
      return;
    }
    this.digest = sha256(token);
  }

  /** Constant-time check; hashing first makes the lengths equal. */
  matches(candidate: string): boolean {
    return this.digest !== undefined && timingSafeEqual(this.digest, sha256(candidate));
  }

  private readOrCreateTokenFile(): string {
    const { value, file, created } = readOrCreateSecret(this.config.DATA_DIR, 'admin-token');
    this.logger.log(created ? `Generated an admin token in ${file} (readable only by this user)` : `Admin token: ${file}`);
    return value;
  }
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
