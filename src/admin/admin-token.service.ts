import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppConfig } from '../config/app-config.js';

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
    const dir = resolve(this.config.DATA_DIR);
    const file = join(dir, 'admin-token');
    if (existsSync(file)) {
      this.logger.log(`Admin token: ${file}`);
      return readFileSync(file, 'utf8').trim();
    }
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(file, `adm_${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
    this.logger.log(`Generated an admin token in ${file} (readable only by this user)`);
    return readFileSync(file, 'utf8').trim();
  }
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
