import { createHmac } from 'node:crypto';
import { isValid, parseSignatureHeader, sign, signatureHeader, verify, WebhookSignatureError } from './signature.js';
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
  });
});
