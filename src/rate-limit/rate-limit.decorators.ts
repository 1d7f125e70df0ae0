import { SetMetadata } from '@nestjs/common';

export const RATE_LIMIT_BUCKET = 'rateLimitBucket';
export type RateLimitBucket = 'default' | 'ai';

/** Counts the route in the AI bucket (RATE_LIMIT_AI_MAX per 60 s) instead of the general one. */
export const AiRateLimit = () => SetMetadata(RATE_LIMIT_BUCKET, 'ai' satisfies RateLimitBucket);
