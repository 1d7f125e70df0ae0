import { Injectable } from '@nestjs/common';
import { AppsService } from '../apps/apps.service.js';
import { RequestError } from '../common/errors/request-errors.js';
import { newId } from '../common/ids.js';
import { Transactions } from '../database/transactions.js';
import { PAGEVIEW, SIGNUP } from './analytics-event.js';
import { AnalyticsError } from './analytics.errors.js';
import type { CreateGoalDto, GoalDto } from './dto/goal.dto.js';
import { Goal, GoalsRepository } from './goals.repository.js';

/** Goals an app may have (Sign-up, built in, not among them). */
export const MAX_GOALS = 50;
/** The built-in goal: sign-ups through a landing page's form. */
export const SIGNUP_GOAL = 'Sign-up';

/** What a goal counts, as the stats query matches it: an event's name, or a pageview's path (as given, `*` any characters, and as a LIKE pattern). */
export interface GoalMatcher {
  name: string;
  event: string | null;
  page: string | null;
  pageLike: string | null;
}

/**
 * Goals: a custom event, or pageviews of a page (`*` any characters), each completion a conversion.
 * Nothing is counted when a goal is made: AnalyticsStatsService counts goals when asked, from the daily
 * rollups (which count every event and prop whatever the goals) or the raw events (goal-sources.ts says
 * which), so a new goal covers the events from before it.
 */
@Injectable()
export class GoalsService {
  constructor(
    private readonly db: Transactions,
    private readonly goals: GoalsRepository,
    private readonly apps: AppsService,
  ) {}

  async create(accountId: string, appId: string, body: CreateGoalDto): Promise<GoalDto> {
    if ((body.event === undefined) === (body.page === undefined)) throw RequestError.invalid(['give exactly one of event and page']);
    if (body.event === PAGEVIEW) throw RequestError.invalid(['event must not be pageview: give page (a path, "/*" for any) instead']);
    const name = body.event ?? `Visit ${body.page}`;
    if (name === SIGNUP_GOAL || body.event === SIGNUP) throw AnalyticsError.goalExists(SIGNUP_GOAL);
    const goal: Goal = { id: newId('goal'), appId, name, event: body.event ?? null, page: body.page ?? null, createdAt: new Date() };
    // Under the app's row lock: two requests at once cannot both take the 50th place.
    return this.db.run(async () => {
      await this.apps.lockOwned(accountId, appId);
      if ((await this.goals.list(appId)).length >= MAX_GOALS) throw AnalyticsError.goalLimitReached(appId, MAX_GOALS);
      if (!(await this.goals.insert(goal))) throw AnalyticsError.goalExists(name);
      return toDto(goal);
    });
  }

  async list(accountId: string, appId: string): Promise<{ data: GoalDto[]; nextCursor: null }> {
    await this.apps.requireOwned(accountId, appId);
    return { data: (await this.goals.list(appId)).map(toDto), nextCursor: null };
  }

  async delete(accountId: string, appId: string, id: string): Promise<void> {
    await this.apps.requireOwned(accountId, appId);
    if (!(await this.goals.delete(appId, id))) throw AnalyticsError.goalNotFound(id);
  }

  /** The app's goals as the stats query matches them: Sign-up first, then the app's own. */
  async matchers(appId: string): Promise<GoalMatcher[]> {
    const own = await this.goals.list(appId);
    return [
      { name: SIGNUP_GOAL, event: SIGNUP, page: null, pageLike: null },
      ...own.map((g) => ({ name: g.name, event: g.event, page: g.page, pageLike: g.page === null ? null : likePattern(g.page) })),
    ];
  }
}

/** A page pattern as SQL LIKE: `*` any characters, everything else itself (LIKE's own `%`, `_` and `\` escaped). */
export function likePattern(page: string): string {
  return page.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
}

function toDto(goal: Goal): GoalDto {
  return {
    id: goal.id,
    name: goal.name,
    ...(goal.event !== null ? { event: goal.event } : { page: goal.page! }),
    createdAt: goal.createdAt.toISOString(),
  };
}
