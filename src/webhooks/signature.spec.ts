import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import {
  isValid,
  parseSignatureHeader,
  sign,
  signatureHeader,
  signStandard,
  standardKey,
  standardSignatureHeader,
  verify,
  verifyStandard,
  WebhookSignatureError,
} from './signature.js';
import * as lib from '../../libs/webhook-signature/index.js';

describe('webhook signature', () => {
  const body = '{"id":"evt_1","event":"user.created","createdAt":"2025-11-22T04:20:00.000Z","data":{}}';
  const t = 1_763_780_000;

  it('is the lowercase hex HMAC-SHA256 of `${t}.${rawBody}`', () => {
    const expected = createHmac('sha256', 'whsec_a').update(`${t}.${body}`).digest('hex');
    expect(sign('whsec_a', t, body)).toBe(expected);
    expect(sign('whsec_a', t, Buffer.from(body))).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it('puts one v1 per secret in the header', () => {
    const header = signatureHeader(['whsec_new', 'whsec_old'], t, body);
    expect(header).toBe(`t=${t},v1=${sign('whsec_new', t, body)},v1=${sign('whsec_old', t, body)}`);
    expect(parseSignatureHeader(header)).toEqual({ timestamp: t, signatures: [sign('whsec_new', t, body), sign('whsec_old', t, body)] });
  });

  it('verifies with any of the secrets, within the tolerance', () => {
    const header = signatureHeader(['whsec_new', 'whsec_old'], t, body);
    expect(verify(body, header, 'whsec_new', 300, t + 10)).toBe(t);
    expect(verify(Buffer.from(body), header, 'whsec_old', 300, t - 10)).toBe(t);
    expect(() => verify(body, header, 'whsec_other', 300, t)).toThrow(WebhookSignatureError);
    expect(() => verify(body + ' ', header, 'whsec_new', 300, t)).toThrow('No signature matches');
    expect(() => verify(body, header, 'whsec_new', 300, t + 301)).toThrow('tolerance');
    expect(() => verify(body, 'garbage', 'whsec_new')).toThrow('Malformed');
    expect(() => verify(body, undefined, 'whsec_new')).toThrow('Missing');
  });

  it('verifies fresh signatures with the default tolerance', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(isValid(body, signatureHeader(['s'], now, body), 's')).toBe(true);
    expect(isValid(body, signatureHeader(['s'], now - 3600, body), 's')).toBe(false);
  });

  it('is what libs/webhook-signature exports', () => {
    expect(lib.sign).toBe(sign);
    expect(lib.verify).toBe(verify);
    expect(lib.signatureHeader).toBe(signatureHeader);
    expect(lib.standardSignatureHeader).toBe(standardSignatureHeader);
    expect(lib.verifyStandard).toBe(verifyStandard);
  });

  describe('Standard Webhooks', () => {
    // The secrets made since the Standard Webhooks headers, and one of the URL-safe ones made before.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw6Tq+5Rs2v3Q=';
    const urlSafe = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw6Tq-5Rs2v3Q';
    const now = Math.floor(Date.now() / 1000);
    const headers = (secrets: string[], at = now) => ({
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(at),
      'webhook-signature': standardSignatureHeader(secrets, 'evt_1', at, body),
    });

    it('is the base64 HMAC-SHA256 of `${id}.${t}.${rawBody}` keyed with the decoded secret', () => {
      const key = Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw6Tq+5Rs2v3Q=', 'base64');
      expect(key).toHaveLength(32);
      expect(standardKey(secret)).toEqual(key);
      expect(standardKey(urlSafe)).toEqual(key);
      expect(signStandard(secret, 'evt_1', t, body)).toBe(createHmac('sha256', key).update(`evt_1.${t}.${body}`).digest('base64'));
      expect(headers([secret, 'whsec_b2xk'])['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
    });

    it("verifies with the standardwebhooks library's Webhook.verify, and with ours; a tampered body fails both", () => {
      expect(new Webhook(secret).verify(body, headers([secret]))).toEqual(JSON.parse(body));
      expect(new Webhook(secret).verify(body, headers(['whsec_b2xk', secret]))).toEqual(JSON.parse(body));
      expect(verifyStandard(body, headers([secret]), secret)).toBe(now);
      // A URL-safe secret signs with the same key: the library takes it once written in the standard alphabet.
      expect(new Webhook(secret).verify(body, headers([urlSafe]))).toEqual(JSON.parse(body));
      const tampered = body.replace('user.created', 'user.deleted');
      expect(() => new Webhook(secret).verify(tampered, headers([secret]))).toThrow('No matching signature');
      expect(() => verifyStandard(tampered, headers([secret]), secret)).toThrow(WebhookSignatureError);
      expect(() => verifyStandard(body, headers([secret], now - 301), secret)).toThrow('tolerance');
      expect(() => verifyStandard(body, { 'webhook-id': 'evt_1' }, secret)).toThrow('Missing');
    });
  });
});
