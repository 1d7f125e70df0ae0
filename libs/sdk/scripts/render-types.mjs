// Turns the service's OpenAPI document into src/generated/openapi.ts (openapi-typescript).
// Shared by scripts/generate-types.mjs and the test that fails when the committed file is stale.
import openapiTS, { astToString } from 'openapi-typescript';

const HEADER = `/**
 * Generated from the service's OpenAPI document (GET /docs/openapi.json) by openapi-typescript.
 * Do not edit: run \`npm run sdk:types\` at the repository root after changing a route or DTO.
 */
`;

export const GENERATED_TYPES_PATH = new URL('../src/generated/openapi.ts', import.meta.url);

/** @param {object} document the OpenAPI 3 document @returns {Promise<string>} */
export async function renderTypes(document) {
  return HEADER + astToString(await openapiTS(document));
}
