// Entry of the parse worker thread: the indexer runs under tsx, and a worker thread does not inherit
// the TypeScript loader of the thread that starts it, so the worker registers it before importing.
import { register } from 'tsx/esm/api';

register();
await import('./parse-worker.ts');
