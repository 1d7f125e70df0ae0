import { SetMetadata } from '@nestjs/common';

export const RESPONSE_NOT_KEPT = 'idempotency:responseNotKept';

/**
 * Every authenticated POST honours `Idempotency-Key` (the IdempotencyInterceptor on each POST
 * route). Routes whose answer must not be stored mark it here: the key still guards against running twice, but
 * a replay answers 409 with this reason instead of the original body. For answers holding a
 * secret shown once (API keys, client secrets, webhook secrets) — kept only as hashes or sealed
 * in their own tables — and for AI output, which is never stored.
 */
export const ResponseNotKept = (why: string) => SetMetadata(RESPONSE_NOT_KEPT, why);

export const SECRET_NOT_KEPT = 'the original response held a secret and is not kept';
