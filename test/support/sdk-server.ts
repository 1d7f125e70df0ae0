import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_MODEL_PATH as MODEL } from './models.js';
import { startTestApp, TestApp } from './test-app.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** The test GGUF model and node-llama-cpp are both here: the server can generate locally. */
export const hasLocalModel = existsSync(MODEL) && existsSync(join(ROOT, 'node_modules/node-llama-cpp'));

/** The real server the SDK suites talk to: private webhook targets allowed, fast retries, the local model when present. */
export function startSdkTestServer(): Promise<TestApp> {
  return startTestApp({
    env: {
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_BASE_MS: '50',
      // 250 creates in one test would otherwise wait out a 60 s window (429 handling is tested through a proxy).
      RATE_LIMIT_MAX: '2000',
      ...(hasLocalModel ? { AI_PROVIDER: 'local', AI_MODEL_PATH: MODEL } : {}),
    },
  });
}
