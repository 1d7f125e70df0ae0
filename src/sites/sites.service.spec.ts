import type { Deployment } from '../deployments/deployment.entity.js';
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
    createdAt: new Date('2025-11-22T04:20:00Z'),
  });
  const deployments = {
    findServable: async (id: string) => (id === 'dep_1' ? deployment('dep_1', 'First') : null),
    findNewestServable: async (appId: string, env: string) => (appId === 'app_1' && env === 'production' ? deployment('dep_2', 'Newest') : null),
  } as unknown as DeploymentsService;
  const sites = new SitesService(deployments);

  it.each([
    ['/sites/dep_1/', 'dep_1', '/sites/dep_1/', 'page', false],
    ['/sites/dep_1/signup', 'dep_1', '/sites/dep_1/', 'signup', false],
    ['/sites/dep_1/thanks', 'dep_1', '/sites/dep_1/', 'thanks', false],
    ['/sites/app_1/production/', 'dep_2', '/sites/app_1/production/', 'page', true],
    ['/sites/app_1/production/signup', 'dep_2', '/sites/app_1/production/', 'signup', true],
  ])('resolves %s', async (path, id, basePath, action, alias) => {
    const res = await sites.resolve(path, '');
    expect(res).toMatchObject({ kind: 'target', target: { deployment: { id }, basePath, action, alias } });
  });

  it('redirects a page address to its trailing slash, keeping the query', async () => {
    expect(await sites.resolve('/sites/dep_1', '?ref=x')).toEqual({ kind: 'redirect', location: '/sites/dep_1/?ref=x' });
    expect(await sites.resolve('/sites/app_1/production', '')).toEqual({ kind: 'redirect', location: '/sites/app_1/production/' });
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
