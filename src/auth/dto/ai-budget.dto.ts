import { IsInt, Max, Min, ValidateIf } from 'class-validator';

const MAX_BUDGET = 2_000_000_000;

/**
 * A credential's AI budget: the most `ai.tokens` its AI calls may use per UTC day and per UTC month,
 * beside the plan's quota. Past one, AI calls answer 429 `ai_budget_exhausted` until the period ends.
 * Absent or null: no limit of its own (in a PATCH, null removes one, absent keeps it).
 */
export class AiBudgetDto {
  /** @example 50000 */
  @ValidateIf((_dto, value) => value !== undefined && value !== null)
  @IsInt({ message: 'aiTokensPerDay must be a whole number or null' })
  @Min(1, { message: `aiTokensPerDay must be between 1 and ${MAX_BUDGET}, or null` })
  @Max(MAX_BUDGET, { message: `aiTokensPerDay must be between 1 and ${MAX_BUDGET}, or null` })
  aiTokensPerDay?: number | null;

  /** @example 1000000 */
  @ValidateIf((_dto, value) => value !== undefined && value !== null)
  @IsInt({ message: 'aiTokensPerMonth must be a whole number or null' })
  @Min(1, { message: `aiTokensPerMonth must be between 1 and ${MAX_BUDGET}, or null` })
  @Max(MAX_BUDGET, { message: `aiTokensPerMonth must be between 1 and ${MAX_BUDGET}, or null` })
  aiTokensPerMonth?: number | null;
}

/** A credential's AI budget as it is stored and shown: null where it has no limit of its own. */
export interface AiBudget {
  aiTokensPerDay: number | null;
  aiTokensPerMonth: number | null;
}

export const NO_AI_BUDGET: AiBudget = { aiTokensPerDay: null, aiTokensPerMonth: null };

/** The budget a create asks for, null where it names none. */
export function budgetOf(dto: AiBudgetDto): AiBudget {
  return { aiTokensPerDay: dto.aiTokensPerDay ?? null, aiTokensPerMonth: dto.aiTokensPerMonth ?? null };
}
