import { Injectable } from '@nestjs/common';
import { AppsService } from '../apps/apps.service.js';
import type { AppDto } from '../apps/dto/app.dto.js';
import type { Actor } from '../common/request-context/actor.js';
import { Transactions } from '../database/transactions.js';
import { DeploymentsService } from '../deployments/deployments.service.js';
import { PublishingError } from './publishing.errors.js';
import { SplitService } from './split.service.js';

/**
 * Publishing points an app's public address at one of its deployments — any environment, any age:
 * publishing an older one is a rollback, at once, with nothing rebuilt — and unpublishing takes the
 * address down (410). Both change the app row in one transaction with their event.
 */
@Injectable()
export class PublishingService {
  constructor(
    private readonly db: Transactions,
    private readonly apps: AppsService,
    private readonly deployments: DeploymentsService,
    private readonly splits: SplitService,
  ) {}

  /** Publishes `deploymentId`, or by default the newest `production` deployment (none: 400), ending a split test. Emits `app.published`. */
  publish(accountId: string, actor: Actor, appId: string, deploymentId?: string): Promise<AppDto> {
    return this.db.run(async () => {
      const app = await this.apps.lockOwned(accountId, appId);
      const deployment = deploymentId
        ? await this.deployments.findOfApp(app.id, deploymentId)
        : await this.deployments.findNewestServable(app.id, 'production');
      if (!deployment) throw deploymentId ? PublishingError.notOfApp(deploymentId, app.id) : PublishingError.noProductionDeployment(app.id);
      // Publishing (the winner, or anything else) ends a running split test: the address serves one deployment again.
      await this.splits.endRunning(app, 'published', actor);
      return this.apps.markPublished(app, deployment.id);
    });
  }

  /** Takes the public address down: it answers 410 until the app is published again. Emits `app.unpublished`. */
  unpublish(accountId: string, actor: Actor, appId: string): Promise<AppDto> {
    return this.db.run(async () => {
      const app = await this.apps.lockOwned(accountId, appId);
      const dto = await this.apps.markUnpublished(app);
      await this.splits.endRunning(app, 'unpublished', actor);
      return dto;
    });
  }
}
