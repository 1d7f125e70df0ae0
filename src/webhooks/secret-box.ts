import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1:';

/**
 * Webhook signing secrets must be readable by the service (it signs with them), so they are
 * encrypted rather than hashed: AES-256-GCM under a key derived from WEBHOOK_SECRET_KEY. `open`
 * also reads secrets stored in plain by versions that allowed running without a key.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(passphrase: string) {
    if (passphrase.length < 32) throw new Error('The webhook secret key must be at least 32 characters long');
    this.key = createHash('sha256').update(passphrase).digest();
  }

  /** True for a value `seal` made (as opposed to a secret stored in plain by an older version). */
  static isSealed(stored: string): boolean {
    return stored.startsWith(PREFIX);
  }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ct = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${PREFIX}${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${ct.toString('base64url')}`;
  }

  open(stored: string): string {
    if (!stored.startsWith(PREFIX)) return stored;
    const [iv, tag, ct] = stored
      .slice(PREFIX.length)
      .split(':')
      .map((p) => Buffer.from(p, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ct), decipher.final()]).toString('utf8');
  }
}
