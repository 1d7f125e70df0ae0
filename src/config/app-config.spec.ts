import { ConfigError, loadConfig } from './app-config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      APP_ROLE: 'all',
      LOG_LEVEL: 'info',
      RATE_LIMIT_MAX: 100,
      RATE_LIMIT_AI_MAX: 20,
      WEBHOOK_ALLOW_PRIVATE: false,
      WEBHOOK_RETRY_BASE_MS: 30000,
      WEBHOOK_TIMEOUT_MS: 10000,
      AI_THREADS: 1,
      AI_TIMEOUT_MS: 60000,
      AI_REDACT_PII: false,
    });
    expect(config.embeddedDatabase).toBe(true);
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it('parses numbers and booleans from strings', () => {
    const config = loadConfig({
      PORT: '8080',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      DATABASE_URL: 'postgres://u@h/db',
      WEBHOOK_SECRET_KEY: 'k'.repeat(32),
      SESSION_SECRET: 's'.repeat(32),
      PUBLIC_URL: 'https://api.example.com/',
    });
    expect(config.PORT).toBe(8080);
    expect(config.WEBHOOK_ALLOW_PRIVATE).toBe(true);
    expect(config.embeddedDatabase).toBe(false);
    expect(config.publicUrl).toBe('https://api.example.com');
  });

  it('names every bad variable', () => {
    const attempt = () => loadConfig({ PORT: 'eighty', REDIS_URL: 'localhost:6379', APP_ROLE: 'both', WEBHOOK_ALLOW_PRIVATE: 'maybe', ADMIN_TOKEN: 'short' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (err) {
      const message = (err as Error).message;
      for (const name of ['PORT', 'REDIS_URL', 'APP_ROLE', 'WEBHOOK_ALLOW_PRIVATE', 'ADMIN_TOKEN']) expect(message).toContain(name);
    }
  });

  it('refuses to start on PostgreSQL without WEBHOOK_SECRET_KEY and SESSION_SECRET (the embedded default generates them)', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h/db' })).toThrow(/WEBHOOK_SECRET_KEY must be set[\s\S]*SESSION_SECRET must be set/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h/db', SESSION_SECRET: 's'.repeat(32) })).toThrow(/WEBHOOK_SECRET_KEY must be set/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h/db', WEBHOOK_SECRET_KEY: 'short' })).toThrow(/WEBHOOK_SECRET_KEY must be at least 32 characters/);
    expect(() => loadConfig({})).not.toThrow();
  });

  it('ignores variables it does not know', () => {
    expect(() => loadConfig({ HOME: '/root', SOMETHING_ELSE: 'x' })).not.toThrow();
  });
});
