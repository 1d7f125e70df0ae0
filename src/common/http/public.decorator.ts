import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'isPublic';

/** Skips the global bearer-credential guard (the route authenticates some other way, or not at all). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
