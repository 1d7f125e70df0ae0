import type { AppAddresses } from '../apps/app-addresses.js';
import type { AppsService } from '../apps/apps.service.js';
import type { Deployment } from '../deployments/deployment.entity.js';
import type { DeploymentsService } from '../deployments/deployments.service.js';
import type { AnyDomainEvent } from '../events/domain-events.js';
import type { DomainEvents } from '../events/domain-events.service.js';
import type { RedisConnection } from '../redis/redis.module.js';
import { SiteDirectory } from './site-directory.js';
import type { SplitAssignment } from '../publishing/split-assignment.js';

describe('SiteDirectory', () => {
  const deployment = (id: string, appId: string): Deployment =>
    ({ id, appId, accountId: 'acc_1', env: 'production', files: { '/index.html': 'a'.repeat(64) }, config: null }) as unknown as Deployment;
  let reads = 0;
  let release: (() => void) | undefined;
  const deployments = {
    findServable: async (id: string) => {
      reads++;
      if (release) await new Promise<void>((resolve) => (release = resolve));
      return id.startsWith('dep_') ? deployment(id, id === 'dep_A' ? 'app_a' : 'app_b') : null;
    },
  } as unknown as DeploymentsService;
  const apps = { resolveSlug: async () => null } as unknown as AppsService;
  const addresses = { deploymentIdOfLabel: (label: string) => (label.startsWith('dep-') ? `dep_${label.slice(4).toUpperCase()}` : undefined) } as AppAddresses;
  let observer: (event: AnyDomainEvent) => void = () => undefined;
  const events = { observeCommitted: (o: (event: AnyDomainEvent) => void) => (observer = o) } as unknown as DomainEvents;
  const redis = { client: null, subscribe: () => undefined } as unknown as RedisConnection;
  const noSplits = { running: async () => undefined } as unknown as SplitAssignment;
  const changed = (appId: string) => observer({ name: 'deployment.succeeded', data: { appId } } as unknown as AnyDomainEvent);

  beforeEach(() => {
    reads = 0;
    release = undefined;
  });

  it('keeps what a label names until its own app changes, however much other apps change', async () => {
    const directory = new SiteDirectory(deployments, apps, addresses, redis, events, noSplits);
    expect(await directory.lookup('dep-a')).toMatchObject({ kind: 'site', address: 'deployment', site: { deployment: { id: 'dep_A' } } });
    for (let i = 0; i < 100; i++) changed(`app_other_${i}`);
    expect(directory.peek('dep-a')).toMatchObject({ kind: 'site' });
    expect(reads).toBe(1);
    changed('app_a');
    expect(directory.peek('dep-a')).toBeUndefined();
    await directory.lookup('dep-a');
    expect(reads).toBe(2);
  });

  it('does not keep a lookup whose app changed while it read, nor a nameless one after any change', async () => {
    const directory = new SiteDirectory(deployments, apps, addresses, redis, events, noSplits);
    release = () => undefined;
    const reading = directory.lookup('dep-a');
    await new Promise((resolve) => setImmediate(resolve));
    changed('app_a');
    release();
    expect(await reading).toMatchObject({ kind: 'site' });
    expect(directory.peek('dep-a')).toBeUndefined();

    expect(await directory.lookup('nobody')).toEqual({ kind: 'none' });
    expect(directory.peek('nobody')).toEqual({ kind: 'none' });
    changed('app_new');
    expect(directory.peek('nobody')).toBeUndefined();
  });
});
