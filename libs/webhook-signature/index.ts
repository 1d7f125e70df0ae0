/**
 * Webhook signing and verification for clients (SDKs, receivers). The implementation lives in the
 * service (`src/webhooks/signature.ts`, which the build compiles under its rootDir ./src) and is
 * dependency-free, so the server and the SDKs run the very same code.
 */
export {
  DEFAULT_TOLERANCE_SEC,
  isValid,
  parseSignatureHeader,
  sign,
  SIGNATURE_HEADER,
  signatureHeader,
  signStandard,
  STANDARD_ID_HEADER,
  STANDARD_SIGNATURE_HEADER,
  STANDARD_TIMESTAMP_HEADER,
  standardKey,
  standardSignatureHeader,
  verify,
  verifyStandard,
  WebhookSignatureError,
} from '../../src/webhooks/signature.js';
export type { ParsedSignatureHeader } from '../../src/webhooks/signature.js';
