import { SetMetadata } from '@nestjs/common';

export const RATE_LIMIT_BUCKET = 'rateLimitBucket';
export type RateLimitBucket = 'default' | 'ai' | 'uploads';

/** Counts the route in the AI bucket (RATE_LIMIT_AI_MAX per 60 s) instead of the general one. */
export const AiRateLimit = () => SetMetadata(RATE_LIMIT_BUCKET, 'ai' satisfies RateLimitBucket);

/**
 * Counts the route in this bucket instead of the general one: `uploads` (RATE_LIMIT_UPLOADS_MAX per 60 s per account)
 * for `PUT /v1/files/:sha256`, as a deploy of a large bundle uploads many files at once.
 */
export const RateLimitBucketOf = (bucket: RateLimitBucket) => SetMetadata(RATE_LIMIT_BUCKET, bucket);
