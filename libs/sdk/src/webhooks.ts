import { isValid, parseSignatureHeader, sign, signatureHeader, verify, WebhookSignatureError } from '../../webhook-signature/index.js';

export { sign, signatureHeader, WebhookSignatureError };

export interface WebhookEvent<T = Record<string, unknown>> {
  id: string;
  event: string;
  createdAt: string;
  data: T;
}

/**
 * Checks a delivery and returns the parsed event; throws WebhookSignatureError on a bad
 * signature, a missing header or a timestamp outside the tolerance. Any of several `v1=`
 * values may match (during a secret rotation). Pass the body exactly as received.
 */
export function verifyWebhook<T = Record<string, unknown>>(
  rawBody: string | Buffer,
  signatureHeaderValue: string | undefined | null,
  secret: string,
  options: { toleranceSec?: number; now?: number } = {},
): WebhookEvent<T> {
  verify(rawBody, signatureHeaderValue, secret, options.toleranceSec ?? 300, options.now);
  return JSON.parse(rawBody.toString()) as WebhookEvent<T>;
}

export { isValid as isValidWebhook, parseSignatureHeader };
