import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';

export interface Goal {
  id: string;
  appId: string;
  name: string;
  event: string | null;
  page: string | null;
  createdAt: Date;
}

interface GoalRow {
  id: string;
  app_id: string;
  name: string;
  event: string | null;
  page: string | null;
  created_at: Date;
}

/** The analytics_goals table. */
@Injectable()
export class GoalsRepository {
  constructor(private readonly db: Transactions) {}

  /** The app's goals, oldest first (the order they were made in). */
  async list(appId: string): Promise<Goal[]> {
    const rows = await this.db.query<GoalRow>(`SELECT * FROM analytics_goals WHERE app_id = $1 ORDER BY created_at, id`, [appId]);
    return rows.map(toGoal);
  }

  /** Inserts the goal; false when the app has one of that name already. */
  async insert(goal: Goal): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      `INSERT INTO analytics_goals (id, app_id, name, event, page, created_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (app_id, name) DO NOTHING RETURNING id`,
      [goal.id, goal.appId, goal.name, goal.event, goal.page, goal.createdAt],
    );
    return rows.length === 1;
  }

  async delete(appId: string, id: string): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(`DELETE FROM analytics_goals WHERE app_id = $1 AND id = $2 RETURNING id`, [appId, id]);
    return rows.length === 1;
  }
}

function toGoal(row: GoalRow): Goal {
  return { id: row.id, appId: row.app_id, name: row.name, event: row.event, page: row.page, createdAt: new Date(row.created_at) };
}
