import type { App } from '../apps/app.entity.js';

/**
 * What a deployment serves, frozen at deploy time and never changed afterwards. A document
 * (jsonb) that grows: later versions add fields (landing page, sign-up form, ...) beside `app`,
 * and readers must accept their absence in older deployments.
 */
export interface DeploymentSnapshot {
  schemaVersion: 1;
  app: {
    name: string;
    description: string | null;
  };
}

export function snapshotOf(app: App): DeploymentSnapshot {
  return { schemaVersion: 1, app: { name: app.name, description: app.description } };
}
