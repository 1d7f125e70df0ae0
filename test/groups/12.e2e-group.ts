// The e2e specs of group 12, in one module registry (test/setup/e2e-groups.ts says which and why).
import { importGroup } from '../setup/e2e-groups.js';

await importGroup(12);
