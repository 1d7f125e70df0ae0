import { createHash } from 'node:crypto';

/** The hex SHA-256 by which the portal stores tokens, session ids and e-mails. */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
