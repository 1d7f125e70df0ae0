import { createHash } from 'node:crypto';
import { isGauge, METERS, type Plan } from './plans.js';

export interface StatementLine {
  /** A meter, or `plan` for the plan's monthly price. */
  meter: string;
  quantity: number;
  /** Included in the plan; null: unlimited (or the plan line). */
  included: number | null;
  overage: number;
  /** Price of one block of `unitSize` units of overage, in cents (the plan line: its price). */
  unitPriceCents: number;
  unitSize: number;
  amountCents: number;
  /** `functions.duration_ms` only: each function instance's memory limit (MiB), beside the wall time billed. */
  memoryMb?: number;
}

export interface Statement {
  id: string;
  /** `end` is the first day of the next month (exclusive). */
  period: { start: string; end: string };
  plan: { id: string; name: string };
  lines: StatementLine[];
  totalCents: number;
  currency: 'usd';
  status: 'open' | 'closed';
}

/** A statement's id is derived from its account and period: the open one keeps its id when it closes. */
export function statementId(accountId: string, periodStart: string): string {
  return `st_${createHash('sha256').update(`${accountId}\u0000${periodStart}`).digest('base64url').replace(/[-_]/g, '').slice(0, 24)}`;
}

/** The statement of a period: the plan's price, then each meter's usage with its overage at the plan's prices. */
export function buildStatement(
  accountId: string,
  period: { start: string; end: string },
  plan: Plan,
  usage: Map<string, number>,
  status: Statement['status'],
  functionsMemoryMb?: number,
): Statement {
  const lines: StatementLine[] = [
    { meter: 'plan', quantity: 1, included: null, overage: 0, unitPriceCents: plan.priceCents, unitSize: 1, amountCents: plan.priceCents },
  ];
  const days = Math.round((Date.parse(period.end) - Date.parse(period.start)) / 86_400_000);
  for (const meter of METERS) {
    // A gauge's ledger holds a sample a day: the period's sum over its days is the average (byte-months); an open period accrues toward it.
    const quantity = isGauge(meter) ? Math.round((usage.get(meter) ?? 0) / days) : (usage.get(meter) ?? 0);
    const quota = plan.meters[meter];
    const included = quota?.included ?? null;
    const overage = included === null ? 0 : Math.max(0, quantity - included);
    const unitSize = quota?.unitSize ?? 1;
    const unitPriceCents = quota?.overageCentsPerUnit ?? 0;
    const line: StatementLine = { meter, quantity, included, overage, unitPriceCents, unitSize, amountCents: Math.ceil(overage / unitSize) * unitPriceCents };
    if (meter === 'functions.duration_ms' && functionsMemoryMb !== undefined) line.memoryMb = functionsMemoryMb;
    lines.push(line);
  }
  return {
    id: statementId(accountId, period.start),
    period,
    plan: { id: plan.id, name: plan.name },
    lines,
    totalCents: lines.reduce((sum, line) => sum + line.amountCents, 0),
    currency: 'usd',
    status,
  };
}
