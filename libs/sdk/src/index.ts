export * from './client.js';
export type { DeployDirectoryOptions, DeployDirectoryResult, DeployProgress } from './deploy-directory.js';
export * from './errors.js';
export * from './webhooks.js';
