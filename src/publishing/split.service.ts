import { Injectable } from '@nestjs/common';
import { AnalyticsStatsService } from '../analytics/analytics-stats.service.js';
import { AuditLog } from '../audit/audit-log.service.js';
import type { App } from '../apps/app.entity.js';
import { AppsError } from '../apps/apps.errors.js';
import { AppsService } from '../apps/apps.service.js';
import { newId } from '../common/ids.js';
import { RequestError } from '../common/errors/request-errors.js';
import type { Actor } from '../common/request-context/actor.js';
import { Transactions } from '../database/transactions.js';
import { DeploymentsService } from '../deployments/deployments.service.js';
import { DomainEvents } from '../events/domain-events.service.js';
import type { SplitDto, SplitResultsDto, StartSplitDto } from './dto/split.dto.js';
import { splitResults, VariantResults } from './split-statistics.js';
import { SplitError } from './split.errors.js';
import { Split, SplitEnd, SplitRepository } from './split.repository.js';

/**
 * Split tests between deployments: the published address serves each visitor one of 2–4 production
 * deployments, by weight, chosen from their daily visitor id (split-assignment.ts); results are each
 * variant's visitors and sign-ups since `startedAt`, from analytics by deployment. One test at a time per app:
 * starting one ends the one running; publishing, unpublishing or DELETE ends it. Emits `split.started`
 * and `split.ended` (with the results), which also move the address (SiteDirectory evicts on them).
 */
@Injectable()
export class SplitService {
  constructor(
    private readonly db: Transactions,
    private readonly splits: SplitRepository,
    private readonly apps: AppsService,
    private readonly deployments: DeploymentsService,
    private readonly stats: AnalyticsStatsService,
    private readonly events: DomainEvents,
    private readonly audit: AuditLog,
  ) {}

  async start(accountId: string, actor: Actor, appId: string, input: StartSplitDto): Promise<SplitDto> {
    const total = input.variants.reduce((sum, v) => sum + v.weight, 0);
    if (total !== 100) throw RequestError.invalid([`variants weights must sum to 100 (they sum to ${total})`]);
    const seen = new Map<string, number>();
    input.variants.forEach((v, i) => {
      const first = seen.get(v.deploymentId);
      if (first !== undefined) throw RequestError.invalid([`variants.${i}.deploymentId repeats variants.${first}.deploymentId`]);
      seen.set(v.deploymentId, i);
    });
    return this.db.run(async () => {
      const app = await this.apps.lockOwned(accountId, appId);
      if (app.publishState !== 'published') throw AppsError.notPublished(app.id);
      const problems: string[] = [];
      for (const [i, v] of input.variants.entries()) {
        const deployment = await this.deployments.findOfApp(app.id, v.deploymentId);
        if (!deployment || deployment.env !== 'production') {
          problems.push(`variants.${i}.deploymentId must be a production deployment of app ${app.id} (${JSON.stringify(v.deploymentId)} is not)`);
        }
      }
      if (problems.length > 0) throw RequestError.invalid(problems);
      await this.endRunning(app, 'replaced', actor);
      const split: Split = {
        id: newId('spl'),
        accountId: app.accountId,
        appId: app.id,
        variants: input.variants.map((v) => ({ deploymentId: v.deploymentId, weight: v.weight })),
        startedAt: new Date(),
      };
      await this.splits.insert(split);
      await this.events.raise('split.started', app.accountId, { appId: app.id, splitId: split.id, variants: split.variants });
      await this.audit.record(app.accountId, actor, 'split.started', auditTarget(split));
      return { id: split.id, variants: split.variants, startedAt: split.startedAt.toISOString() };
    });
  }

  async get(accountId: string, appId: string): Promise<SplitResultsDto> {
    const app = await this.apps.requireOwned(accountId, appId);
    const split = await this.splits.running(app.id);
    if (!split) throw SplitError.notFound(app.id);
    return { id: split.id, variants: await this.results(split), startedAt: split.startedAt.toISOString() };
  }

  /** DELETE: the published deployment serves everyone again. Emits `split.ended` with the results. */
  async end(accountId: string, actor: Actor, appId: string): Promise<void> {
    await this.db.run(async () => {
      const app = await this.apps.lockOwned(accountId, appId);
      if (!(await this.endRunning(app, 'deleted', actor))) throw SplitError.notFound(app.id);
    });
  }

  /**
   * In the caller's transaction, the app locked (publishing, unpublishing, a new test): ends the running test, if
   * any, with `split.ended` and its audit entry (by `actor`, whoever ended it). Whether there was one.
   */
  async endRunning(app: App, by: SplitEnd, actor: Actor): Promise<boolean> {
    const split = await this.splits.running(app.id);
    if (!split) return false;
    await this.splits.end(split.id, by, new Date());
    await this.events.raise('split.ended', app.accountId, { appId: app.id, splitId: split.id, endedBy: by, variants: await this.results(split) });
    await this.audit.record(app.accountId, actor, 'split.ended', auditTarget(split));
    return true;
  }

  /** Each variant's visitors and sign-ups since the test's start (AnalyticsStatsService.deploymentTotals), compared with the first. */
  private async results(split: Split): Promise<VariantResults[]> {
    const counts = await this.stats.deploymentTotals(
      split.appId,
      split.variants.map((v) => v.deploymentId),
      split.startedAt,
    );
    return splitResults(split.variants, counts);
  }
}

/**
 * The audit entry's target: the app, the test and its variants, `<appId>/<splitId>/<deploymentId>=<weight>,…` (at most
 * four variants: well within the target's 320 characters), as env_var entries name `<appId>/<env>/<NAME>`.
 */
function auditTarget(split: Split): string {
  return `${split.appId}/${split.id}/${split.variants.map((v) => `${v.deploymentId}=${v.weight}`).join(',')}`;
}
