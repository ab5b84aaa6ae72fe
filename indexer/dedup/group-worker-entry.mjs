// Entry of the grouping worker thread: as for the parse worker (indexer/parse-worker-entry.mjs), a
// worker thread does not inherit tsx's TypeScript loader, so it registers it before importing.
import { register } from 'tsx/esm/api';

register();
await import('./group-worker.ts');
