/** Where the generated types live (libs/sdk/src/generated/openapi.ts). */
export declare const GENERATED_TYPES_PATH: URL;
/** The generated file's text for an OpenAPI 3 document. */
export declare function renderTypes(document: object): Promise<string>;
