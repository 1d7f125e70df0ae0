import { CreateAccounts1763780000000 } from './1763780000000-create-accounts.js';
import { CreateCredentials1763790000000 } from './1763790000000-create-credentials.js';

/** Every migration, oldest first. Listed explicitly so the same list works from src/ and dist/. */
export const MIGRATIONS = [
  CreateAccounts1763780000000,
  CreateCredentials1763790000000,
];
