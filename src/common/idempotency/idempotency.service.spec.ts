import { IdempotencyError, IdempotencyErrorCode } from './idempotency.errors.js';
import { IdempotencyFingerprint, IdempotencyRepository, StoredIdempotencyRecord } from './idempotency.repository.js';
import { IdempotencyService } from './idempotency.service.js';

/** The repository's contract, in memory. */
class FakeKeys {
  rows = new Map<string, StoredIdempotencyRecord & { hash: string }>();
  vanishOnNextFind = false;

  async claim(f: IdempotencyFingerprint): Promise<boolean> {
    if (this.rows.has(f.key)) return false;
    this.rows.set(f.key, { method: f.method, path: f.path, requestHash: f.requestHash, hash: f.requestHash, statusCode: null, responseBody: null });
    return true;
  }
  async find(_account: string, key: string): Promise<StoredIdempotencyRecord | undefined> {
    if (this.vanishOnNextFind) {
      this.vanishOnNextFind = false;
      this.rows.delete(key);
    }
    return this.rows.get(key);
  }
  async complete(f: IdempotencyFingerprint, statusCode: number, body: string | null): Promise<void> {
    Object.assign(this.rows.get(f.key)!, { statusCode, responseBody: body });
  }
  async release(f: IdempotencyFingerprint): Promise<void> {
    if (this.rows.get(f.key)?.statusCode === null) this.rows.delete(f.key);
  }
  async deleteExpired(): Promise<number> {
    return 0;
  }
}

describe('IdempotencyService', () => {
  const fp = (over: Partial<IdempotencyFingerprint> = {}): IdempotencyFingerprint => ({
    accountId: 'acc_1',
    key: 'k1',
    method: 'POST',
    path: '/v1/apps',
    requestHash: 'h1',
    ...over,
  });
  let keys: FakeKeys;
  let service: IdempotencyService;

  beforeEach(() => {
    keys = new FakeKeys();
    service = new IdempotencyService(keys as unknown as IdempotencyRepository);
  });

  it('lets the first request run, then replays its stored status and body', async () => {
    expect(await service.begin(fp())).toEqual({ replay: false });
    await service.complete(fp(), 201, { appId: 'app_1', name: 'x' });
    expect(await service.begin(fp())).toEqual({ replay: true, statusCode: 201, body: { appId: 'app_1', name: 'x' } });
  });

  it('answers 409 with Retry-After while the first request runs', async () => {
    await service.begin(fp());
    const err = await service.begin(fp()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyError);
    expect((err as IdempotencyError).status).toBe(409);
    expect((err as IdempotencyError).reason).toBe(IdempotencyErrorCode.InFlight);
    expect((err as IdempotencyError).message).toMatch(/in flight/);
    expect((err as IdempotencyError).extras.headers).toEqual({ 'retry-after': '1' });
  });

  it('answers 409 for another body or another route', async () => {
    await service.begin(fp());
    await service.complete(fp(), 200, { ok: true });
    await expect(service.begin(fp({ requestHash: 'h2' }))).rejects.toThrow(
      'Idempotency-Key was already used with a different request body or query; use a new key',
    );
    await expect(service.begin(fp({ path: '/v1/users' }))).rejects.toThrow(/another request \(POST \/v1\/apps\)/);
  });

  it('frees the key of a failed request', async () => {
    await service.begin(fp());
    await service.release(fp());
    expect(await service.begin(fp({ requestHash: 'h2' }))).toEqual({ replay: false });
  });

  it('claims again when the holder released the key between claim and read', async () => {
    await service.begin(fp());
    keys.vanishOnNextFind = true;
    expect(await service.begin(fp())).toEqual({ replay: false });
  });

  it('keeps only that a request ran when its response must not be stored', async () => {
    await service.begin(fp());
    await service.complete(fp(), 201, { key: 'sk_secret' }, false);
    expect(JSON.stringify([...keys.rows.values()])).not.toContain('sk_secret');
    expect(await service.begin(fp())).toEqual({ replay: true, notKept: true });
  });

  it('replays an empty body as no body', async () => {
    await service.begin(fp());
    await service.complete(fp(), 204, undefined);
    expect(await service.begin(fp())).toEqual({ replay: true, statusCode: 204, body: undefined });
  });
});
