import type { App } from '../apps/app.entity.js';
import { defaultLandingPage, LandingPage } from '../landing-pages/landing-page.js';

/**
 * What a deployment serves, frozen at deploy time and never changed afterwards: a versioned
 * document (jsonb). Version 2 added the landing page; deployments made before it stay version 1,
 * and readers go through the functions below, which accept every version.
 */
export type DeploymentSnapshot = SnapshotV1 | SnapshotV2;

interface SnapshotV1 {
  schemaVersion: 1;
  app: { name: string; description: string | null };
}

interface SnapshotV2 {
  schemaVersion: 2;
  app: { name: string; description: string | null };
  landingPage: LandingPage;
}

export function snapshotOf(app: App, landingPage: LandingPage): DeploymentSnapshot {
  return { schemaVersion: 2, app: { name: app.name, description: app.description }, landingPage };
}

/** The page a snapshot serves: its own, or for a version-1 snapshot the default page of the app as it was. */
export function landingPageOf(snapshot: DeploymentSnapshot): LandingPage {
  return snapshot.schemaVersion >= 2 ? (snapshot as SnapshotV2).landingPage : defaultLandingPage(snapshot.app);
}
