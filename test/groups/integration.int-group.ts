// Every integration spec, in one module registry (test/setup/e2e-groups.ts says why).
import { importIntegrationSpecs } from '../setup/e2e-groups.js';

await importIntegrationSpecs();
