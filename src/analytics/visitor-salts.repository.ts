import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';

/** The visitor_salts table: one random salt per UTC day, kept 48 h. */
@Injectable()
export class VisitorSaltsRepository {
  constructor(private readonly db: Transactions) {}

  /** The salt of `day` (YYYY-MM-DD): `candidate` if nobody made one yet, else the one already stored. */
  async getOrCreate(day: string, candidate: Buffer): Promise<Buffer> {
    const rows = await this.db.query<{ salt: Buffer }>(
      `WITH made AS (INSERT INTO visitor_salts (day, salt) VALUES ($1, $2) ON CONFLICT (day) DO NOTHING RETURNING salt)
       SELECT salt FROM made UNION ALL SELECT salt FROM visitor_salts WHERE day = $1 LIMIT 1`,
      [day, candidate],
    );
    return rows[0].salt;
  }

  /** Deletes the salts of days before `firstKeptDay`; returns how many went. */
  async deleteBefore(firstKeptDay: string): Promise<number> {
    const rows = await this.db.query<{ day: string }>(`DELETE FROM visitor_salts WHERE day < $1 RETURNING day`, [firstKeptDay]);
    return rows.length;
  }
}
