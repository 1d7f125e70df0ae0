import { join } from 'node:path';

/** The 1 MB GGUF test model (MIT; see test/fixtures/models/README.md): nonsense text, real generation. */
export const TEST_MODEL_PATH = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', 'fixtures', 'models', 'stories260K.gguf');
