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
      WEBHOOK_DISABLE_AFTER: '5d',
      WEBHOOK_TIMEOUT_MS: 10000,
      AI_THREADS: 1,
      AI_TIMEOUT_MS: 60000,
      AI_REDACT_PII: false,
    });
    expect(config.embeddedDatabase).toBe(true);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.secureCookies).toBe(false);
    expect(config.retryOffsetsMs).toEqual([300_000, 3_600_000, 86_400_000]);
    expect(config.disableAfterMs).toBe(5 * 86_400_000);
  });

  it('reads the functions settings, with their defaults, and names a bad one', () => {
    expect(loadConfig({})).toMatchObject({
      FUNCTIONS_SANDBOX: undefined,
      FUNCTIONS_TIMEOUT_MS: 10_000,
      FUNCTIONS_MEMORY_MB: 128,
      FUNCTIONS_IDLE_MS: 300_000,
      FUNCTIONS_MAX_INSTANCES: 50,
      FUNCTIONS_MAX_BODY_BYTES: 6 * 1024 * 1024,
      FUNCTIONS_LOGS_KEEPALIVE_MS: 15_000,
    });
    expect(loadConfig({ FUNCTIONS_SANDBOX: 'none', FUNCTIONS_MEMORY_MB: '256' })).toMatchObject({ FUNCTIONS_SANDBOX: 'none', FUNCTIONS_MEMORY_MB: 256 });
    expect(() => loadConfig({ FUNCTIONS_SANDBOX: 'docker' })).toThrow('Invalid configuration: FUNCTIONS_SANDBOX must be bwrap or none');
    expect(() => loadConfig({ FUNCTIONS_MEMORY_MB: '8' })).toThrow('FUNCTIONS_MEMORY_MB must be a whole number from 16 to 16384');
  });

  it('reads the retry schedule and the disabling window as durations', () => {
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '30s, 10m,2h', WEBHOOK_DISABLE_AFTER: '36h' })).toMatchObject({
      retryOffsetsMs: [30_000, 600_000, 7_200_000],
      disableAfterMs: 36 * 3_600_000,
    });
    // Bare numbers are ms (tests); WEBHOOK_RETRY_BASE_MS keeps its doubling series.
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '300,600,900' }).retryOffsetsMs).toEqual([300, 600, 900]);
    expect(loadConfig({ WEBHOOK_RETRY_BASE_MS: '50' }).retryOffsetsMs).toEqual([50, 150, 350]);
  });

  it('refuses a retry schedule that is not three increasing delays, and both retry settings at once', () => {
    const message =
      'Invalid configuration: WEBHOOK_RETRY_SCHEDULE must be three increasing delays after the first failure, at most 7d, like 5m,1h,24h (units ms, s, m, h, d; a bare number is ms)';
    for (const schedule of ['5m,1h', '5m,1h,24h,48h', '1h,5m,24h', '5m,5m,1h', '5 min,1h,24h', '5m,1h,8d', '-1,2,3']) {
      expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: schedule })).toThrow(new ConfigError(message));
    }
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '300,600,900', WEBHOOK_RETRY_BASE_MS: '50' })).toThrow(
      new ConfigError('Invalid configuration: set WEBHOOK_RETRY_SCHEDULE or WEBHOOK_RETRY_BASE_MS (a test series), not both'),
    );
    expect(() => loadConfig({ WEBHOOK_DISABLE_AFTER: '5 days' })).toThrow(
      new ConfigError('Invalid configuration: WEBHOOK_DISABLE_AFTER must be a duration like 5d, 12h or 30s (units ms, s, m, h, d)'),
    );
    expect(() => loadConfig({ WEBHOOK_DISABLE_AFTER: '0' })).toThrow(new ConfigError('Invalid configuration: WEBHOOK_DISABLE_AFTER must be longer than 0'));
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
    expect(config.secureCookies).toBe(true);
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

  it('takes an s3:// STORAGE_URL and a MAX_FILE_BYTES, and names either when bad', () => {
    const config = loadConfig({ STORAGE_URL: 's3://my-bucket/prefix?endpoint=http://minio:9000&forcePathStyle=true', MAX_FILE_BYTES: '1048576' });
    expect([config.STORAGE_URL, config.MAX_FILE_BYTES]).toEqual(['s3://my-bucket/prefix?endpoint=http://minio:9000&forcePathStyle=true', 1048576]);
    expect(loadConfig({}).MAX_FILE_BYTES).toBe(25 * 1024 * 1024);
    for (const url of ['http://bucket', 's3://', 's3://UPPER', 'file:///data'])
      expect(() => loadConfig({ STORAGE_URL: url })).toThrow('STORAGE_URL must be s3://');
    expect(() => loadConfig({ MAX_FILE_BYTES: '0' })).toThrow('MAX_FILE_BYTES must be a whole number from 1 to 2147483647');
  });

  it('says once, on one line, what a bad variable accepts', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(new ConfigError('Invalid configuration: PORT must be a whole number from 0 to 65535'));
    for (const port of ['-1', '70000', '1.5', '0x10', ' ']) {
      expect(() => loadConfig({ PORT: port })).toThrow(new ConfigError('Invalid configuration: PORT must be a whole number from 0 to 65535'));
    }
    expect(() => loadConfig({ WEBHOOK_CONCURRENCY: '0', AI_REDACT_PII: 'yes' })).toThrow(
      new ConfigError('Invalid configuration: WEBHOOK_CONCURRENCY must be a whole number from 1 to 1000; AI_REDACT_PII must be true or false'),
    );
    expect(() => loadConfig({ RATE_LIMIT_MAX: 'many' })).toThrow(new ConfigError('Invalid configuration: RATE_LIMIT_MAX must be a whole number of at least 1'));
  });

  it('folds a message in the older multi-line form into one line', () => {
    expect(new ConfigError('Invalid configuration:\n  - AI_PROVIDER=local needs AI_MODEL_PATH (a .gguf file)').message).toBe(
      'Invalid configuration: AI_PROVIDER=local needs AI_MODEL_PATH (a .gguf file)',
    );
  });

  it('refuses to start on PostgreSQL without WEBHOOK_SECRET_KEY and SESSION_SECRET (the embedded default generates them)', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h/db' })).toThrow(/WEBHOOK_SECRET_KEY must be set[\s\S]*SESSION_SECRET must be set/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h/db', SESSION_SECRET: 's'.repeat(32) })).toThrow(/WEBHOOK_SECRET_KEY must be set/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h/db', WEBHOOK_SECRET_KEY: 'short' })).toThrow(/WEBHOOK_SECRET_KEY must be at least 32 characters/);
    expect(() => loadConfig({})).not.toThrow();
  });

  it('takes an smtp:// or smtps:// SMTP_URL with SMTP_FROM, and names either when bad (never echoing the URL: it holds a password)', () => {
    expect(loadConfig({ SMTP_URL: 'smtp://user:p%40ss@mail.example.com:587', SMTP_FROM: 'Platform <no-reply@example.com>' })).toMatchObject({
      SMTP_URL: 'smtp://user:p%40ss@mail.example.com:587',
      SMTP_FROM: 'Platform <no-reply@example.com>',
    });
    expect(loadConfig({ SMTP_URL: 'smtps://mail.example.com', SMTP_FROM: 'no-reply@example.com' }).SMTP_URL).toBe('smtps://mail.example.com');
    expect(loadConfig({ SMTP_URL: '', SMTP_FROM: '' }).SMTP_URL).toBeUndefined();
    for (const url of ['http://mail.example.com', 'smtp://', 'smtp://user:secret@host:25 x', 'mail.example.com:25']) {
      const thrown = (() => {
        try {
          loadConfig({ SMTP_URL: url, SMTP_FROM: 'no-reply@example.com' });
        } catch (err) {
          return (err as Error).message;
        }
      })();
      expect(thrown).toContain('SMTP_URL must be smtp://user:pass@host:port or smtps://');
      expect(thrown).not.toContain('secret');
    }
    for (const from of ['no-reply', 'a@b.c\r\nBcc: x@y.z', 'Name <a@b.c']) {
      expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.com', SMTP_FROM: from })).toThrow('SMTP_FROM must be an e-mail address');
    }
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.com' })).toThrow('SMTP_FROM must be set with SMTP_URL');
  });

  it('ignores variables it does not know', () => {
    expect(() => loadConfig({ HOME: '/root', SOMETHING_ELSE: 'x' })).not.toThrow();
  });
});
