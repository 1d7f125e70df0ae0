import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';

/** A variable as stored: a secret's value sealed (SecretBox), a plain one's as it is. Deployments keep the same shape. */
export interface StoredVar {
  name: string;
  secret: boolean;
  value: string;
}

export interface EnvVarRow extends StoredVar {
  updatedAt: Date;
}

interface Raw {
  name: string;
  secret: boolean;
  value: string;
  updated_at: Date;
}

const toRow = (r: Raw): EnvVarRow => ({ name: r.name, secret: r.secret, value: r.value, updatedAt: new Date(r.updated_at) });

/** The env_vars table: an app environment's variables for its server code. */
@Injectable()
export class EnvVarsRepository {
  constructor(private readonly db: Transactions) {}

  async list(appId: string, env: string): Promise<EnvVarRow[]> {
    const rows = await this.db.query<Raw>(`SELECT name, secret, value, updated_at FROM env_vars WHERE app_id = $1 AND env = $2 ORDER BY name`, [appId, env]);
    return rows.map(toRow);
  }

  async count(appId: string, env: string): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM env_vars WHERE app_id = $1 AND env = $2`, [appId, env]);
    return Number(row.n);
  }

  async exists(appId: string, env: string, name: string): Promise<boolean> {
    const rows = await this.db.query<{ one: number }>(`SELECT 1 AS one FROM env_vars WHERE app_id = $1 AND env = $2 AND name = $3`, [appId, env, name]);
    return rows.length > 0;
  }

  async upsert(appId: string, env: string, stored: StoredVar, at: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO env_vars (app_id, env, name, secret, value, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (app_id, env, name) DO UPDATE SET secret = EXCLUDED.secret, value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
      [appId, env, stored.name, stored.secret, stored.value, at],
    );
  }

  /** True when there was one to delete. */
  async delete(appId: string, env: string, name: string): Promise<boolean> {
    const rows = await this.db.query<{ name: string }>(`DELETE FROM env_vars WHERE app_id = $1 AND env = $2 AND name = $3 RETURNING name`, [appId, env, name]);
    return rows.length > 0;
  }
}
