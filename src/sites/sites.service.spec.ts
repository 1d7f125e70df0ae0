import type { Deployment } from '../deployments/deployment.entity.js';
import type { AppsService } from '../apps/apps.service.js';
import type { DeploymentsService } from '../deployments/deployments.service.js';
import { SitesError } from './sites.errors.js';
import { SitesService } from './sites.service.js';

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
    config: null,
    createdAt: new Date('2025-11-22T04:20:00Z'),
  });
  const deployments = {
    findServable: async (id: string) => (id === 'dep_1' ? deployment('dep_1', 'First') : null),
    findNewestServable: async (appId: string, env: string) => (appId === 'app_1' && env === 'production' ? deployment('dep_2', 'Newest') : null),
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
              : null,
    publicUrlOf: (slug: string) => `https://${slug}.apps.example.com/`,
  } as unknown as AppsService;
  const sites = new SitesService(deployments, apps);

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

  it('serves a host-routed public address at /', async () => {
    expect(await sites.resolve('/p/live/', '', true)).toMatchObject({ kind: 'target', target: { basePath: '/', address: 'public' } });
    expect(await sites.resolve('/p/old-name/signup', '?x=1', true)).toEqual({
      kind: 'redirect',
      location: 'https://live.apps.example.com/signup?x=1',
      permanent: true,
    });
  });

  it('redirects a renamed slug (301) to the new address, keeping the rest of the path', async () => {
    expect(await sites.resolve('/p/old-name/thanks', '?ref=x')).toEqual({ kind: 'redirect', location: '/p/live/thanks?ref=x', permanent: true });
  });

  it('answers 410 for an unpublished app and 404 for a draft or unknown slug', async () => {
    await expect(sites.resolve('/p/gone/', '')).rejects.toMatchObject({ status: 410 });
    await expect(sites.resolve('/p/draft/', '')).rejects.toMatchObject({ status: 404 });
    await expect(sites.resolve('/p/nobody/', '')).rejects.toMatchObject({ status: 404 });
  });

  it('redirects a page address to its trailing slash, keeping the query', async () => {
    expect(await sites.resolve('/sites/dep_1', '?ref=x')).toEqual({ kind: 'redirect', location: '/sites/dep_1/?ref=x', permanent: true });
    expect(await sites.resolve('/sites/app_1/production', '')).toEqual({ kind: 'redirect', location: '/sites/app_1/production/', permanent: true });
    expect(await sites.resolve('/p/live', '')).toEqual({ kind: 'redirect', location: '/p/live/', permanent: true });
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
