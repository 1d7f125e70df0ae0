import { SitesError } from './sites.errors.js';
import type { Deployment } from '../deployments/deployment.entity.js';
import type { DeploymentsService } from '../deployments/deployments.service.js';
import { SitesService } from './sites.service.js';

describe('SitesService', () => {
  const deployment = (id: string, name: string): Deployment => ({
    id, accountId: 'acc_1', appId: 'app_1', env: 'production', status: 'success',
    snapshot: { schemaVersion: 1, app: { name, description: null } }, createdAt: new Date('2025-11-22T04:20:00Z'),
  });
  const deployments = {
    findServable: async (id: string) => (id === 'dep_1' ? deployment('dep_1', 'First') : null),
    findNewestServable: async (appId: string, env: string) => (appId === 'app_1' && env === 'production' ? deployment('dep_2', 'Newest') : null),
  } as unknown as DeploymentsService;
  const sites = new SitesService(deployments);

  it('serves a deployment at /sites/<id>/ with cacheable, locked-down headers', async () => {
    const res = await sites.resolve('/sites/dep_1/', '');
    expect(res).toMatchObject({ kind: 'page', headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=300', 'x-deployment-id': 'dep_1' } });
    expect(res.kind === 'page' && res.html).toContain('<h1>First</h1>');
  });

  it('serves the newest deployment of an env at /sites/<appId>/<env>/, uncached', async () => {
    const res = await sites.resolve('/sites/app_1/production/', '');
    expect(res).toMatchObject({ kind: 'page', headers: { 'cache-control': 'no-cache', 'x-deployment-id': 'dep_2' } });
  });

  it('redirects to the trailing slash, keeping the query', async () => {
    expect(await sites.resolve('/sites/dep_1', '?ref=x')).toEqual({ kind: 'redirect', location: '/sites/dep_1/?ref=x' });
    expect(await sites.resolve('/sites/app_1/production', '')).toEqual({ kind: 'redirect', location: '/sites/app_1/production/' });
  });

  it.each(['/sites/dep_2/', '/sites/app_1/staging/', '/sites/app_1/Prod!/', '/sites/x/', '/sites/', '/sites/dep_1/extra/', '/sites/usr_1/'])('404 for %s', async (path) => {
    await expect(sites.resolve(path, '')).rejects.toThrow(SitesError);
  });
});
