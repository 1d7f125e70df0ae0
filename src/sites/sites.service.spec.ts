import type { Deployment } from '../deployments/deployment.entity.js';
import type { AppsService } from '../apps/apps.service.js';
import type { DeploymentsService } from '../deployments/deployments.service.js';
import { AppAddresses } from '../apps/app-addresses.js';
import { loadConfig } from '../config/app-config.js';
import { SitesError } from './sites.errors.js';
import { SitesService } from './sites.service.js';
import type { SplitAssignment } from '../publishing/split-assignment.js';

describe('SitesService', () => {
  const deployment = (id: string, name: string): Deployment => ({
    id,
    accountId: 'acc_1',
    appId: 'app_1',
    env: 'production',
    status: 'success',
    snapshot: { schemaVersion: 1, app: { name, description: null } },
    files: null,
    filesCount: 0,
    filesBytes: 0,
    functionVars: null,
    config: null,
    createdAt: new Date('2025-11-22T04:20:00Z'),
  });
  const withFiles = (id: string): Deployment => ({ ...deployment(id, 'Bundle'), appId: 'app_2', files: { '/index.html': 'a'.repeat(64) }, filesCount: 1 });
  const deployments = {
    findServable: async (id: string) => (id === 'dep_1' ? deployment('dep_1', 'First') : id === 'dep_3' ? withFiles('dep_3') : null),
    findNewestServable: async (appId: string, env: string) =>
      appId === 'app_1' && env === 'production' ? deployment('dep_2', 'Newest') : appId === 'app_2' && env === 'production' ? withFiles('dep_3') : null,
  } as unknown as DeploymentsService;
  const apps = {
    resolveSlug: async (slug: string) =>
      slug === 'live'
        ? { app: { id: 'app_1', publishState: 'published', publishedDeploymentId: 'dep_1' } }
        : slug === 'gone'
          ? { app: { id: 'app_1', publishState: 'unpublished', publishedDeploymentId: null } }
          : slug === 'draft'
            ? { app: { id: 'app_1', publishState: 'draft', publishedDeploymentId: null } }
            : slug === 'old-name'
              ? { movedTo: 'live' }
              : slug === 'bundle'
                ? { app: { id: 'app_2', slug: 'bundle', publishState: 'published', publishedDeploymentId: 'dep_3' } }
                : null,
    requireOwned: async (_accountId: string, appId: string) => ({ id: appId, slug: 'bundle' }),
  } as unknown as AppsService;
  const addresses = new AppAddresses(loadConfig({ PUBLIC_URL: 'http://localhost:3000' }));
  const sites = new SitesService(deployments, apps, addresses, { deploymentFor: async () => undefined } as unknown as SplitAssignment);

  it.each([
    ['/sites/dep_1/', 'dep_1', '/sites/dep_1/', 'page', 'deployment'],
    ['/sites/dep_1/signup', 'dep_1', '/sites/dep_1/', 'signup', 'deployment'],
    ['/sites/dep_1/thanks', 'dep_1', '/sites/dep_1/', 'thanks', 'deployment'],
    ['/sites/app_1/production/', 'dep_2', '/sites/app_1/production/', 'page', 'alias'],
    ['/sites/app_1/production/signup', 'dep_2', '/sites/app_1/production/', 'signup', 'alias'],
    ['/p/live/', 'dep_1', '/p/live/', 'page', 'public'],
    ['/p/live/thanks', 'dep_1', '/p/live/', 'thanks', 'public'],
  ])('resolves %s', async (path, id, basePath, action, address) => {
    const res = await sites.resolve(path, '');
    expect(res).toMatchObject({ kind: 'target', target: { deployment: { id }, basePath, action, address } });
  });

  it('sends every path of a deployment with files to its own origin (308), keeping the rest of the path and the query', async () => {
    expect(await sites.resolve('/sites/dep_3/', '')).toEqual({ kind: 'redirect', location: 'http://dep-3.localhost:3000/', status: 308 });
    expect(await sites.resolve('/sites/dep_3/assets/app.js', '?v=1')).toEqual({
      kind: 'redirect',
      location: 'http://dep-3.localhost:3000/assets/app.js?v=1',
      status: 308,
    });
    expect(await sites.resolve('/sites/app_2/production/signup', '')).toEqual({
      kind: 'redirect',
      location: 'http://production--bundle.localhost:3000/signup',
      status: 308,
    });
    expect(await sites.resolve('/p/bundle/about', '')).toEqual({ kind: 'redirect', location: 'http://bundle.localhost:3000/about', status: 308 });
  });

  it('redirects a renamed slug (301) to the new address, keeping the rest of the path', async () => {
    expect(await sites.resolve('/p/old-name/thanks', '?ref=x')).toEqual({ kind: 'redirect', location: '/p/live/thanks?ref=x', status: 301 });
  });

  it('answers 410 for an unpublished app and 404 for a draft or unknown slug', async () => {
    await expect(sites.resolve('/p/gone/', '')).rejects.toMatchObject({ status: 410 });
    await expect(sites.resolve('/p/draft/', '')).rejects.toMatchObject({ status: 404 });
    await expect(sites.resolve('/p/nobody/', '')).rejects.toMatchObject({ status: 404 });
  });

  it('redirects a page address to its trailing slash, keeping the query', async () => {
    expect(await sites.resolve('/sites/dep_1', '?ref=x')).toEqual({ kind: 'redirect', location: '/sites/dep_1/?ref=x', status: 301 });
    expect(await sites.resolve('/sites/app_1/production', '')).toEqual({ kind: 'redirect', location: '/sites/app_1/production/', status: 301 });
    expect(await sites.resolve('/p/live', '')).toEqual({ kind: 'redirect', location: '/p/live/', status: 301 });
  });

  it.each([
    '/sites/dep_2/',
    '/sites/app_1/staging/',
    '/sites/app_1/Prod!/',
    '/sites/x/',
    '/sites/',
    '/sites/dep_1/extra/',
    '/sites/dep_1/other',
    '/sites/usr_1/',
  ])('404 for %s', async (path) => {
    await expect(sites.resolve(path, '')).rejects.toThrow(SitesError);
  });
});
