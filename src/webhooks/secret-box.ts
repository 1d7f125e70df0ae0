import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1:';

/**
 * Webhook signing secrets must be readable by the service (it signs with them), so they are
 * encrypted rather than hashed: AES-256-GCM under a key derived from WEBHOOK_SECRET_KEY. Without
 * a key they are stored in plain; `open` reads both forms, so a key can be introduced later
 * (rows written before keep working, new and rotated secrets are encrypted).
 */
export class SecretBox {
  private readonly key: Buffer | null;

  constructor(passphrase: string) {
    this.key = passphrase ? createHash('sha256').update(passphrase).digest() : null;
  }

  seal(secret: string): string {
    if (!this.key) return secret;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ct = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${PREFIX}${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${ct.toString('base64url')}`;
  }

  open(stored: string): string {
    if (!stored.startsWith(PREFIX)) return stored;
    if (!this.key) throw new Error('A webhook secret is encrypted but WEBHOOK_SECRET_KEY is not set');
    const [iv, tag, ct] = stored.slice(PREFIX.length).split(':').map((p) => Buffer.from(p, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ct), decipher.final()]).toString('utf8');
  }
}
