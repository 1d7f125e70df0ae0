// Regenerates src/generated/openapi.ts from the OpenAPI document of the service built in ../../dist
// (booted in-process on a throwaway embedded database), or of a running server:
//   node libs/sdk/scripts/generate-types.mjs [http://localhost:3000/docs/openapi.json]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATED_TYPES_PATH, renderTypes } from './render-types.mjs';

async function fetchDocument(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json();
}

async function bootAndRead() {
  const { startServer } = await import('../../../dist/server.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'sdk-types-'));
  const server = await startServer({ env: { DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, listen: false });
  try {
    const response = await server.app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/docs/openapi.json' });
    return JSON.parse(response.body);
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const document = process.argv[2] ? await fetchDocument(process.argv[2]) : await bootAndRead();
writeFileSync(GENERATED_TYPES_PATH, await renderTypes(document));
console.log(`wrote ${fileURLToPath(GENERATED_TYPES_PATH)}`);
