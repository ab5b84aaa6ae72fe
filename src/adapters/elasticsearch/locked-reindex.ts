/**
 * A reindex under the alias's writer lock, whichever command runs it (`npm run indexer -- reindex`
 * through src/open-listing-store.ts, or this adapter's cli.ts): a load writing to the old generation
 * during the copy would lose its writes at the swap, so a reindex waits for no one and is refused
 * (exit 3) while a writer holds the lock, and a load started meanwhile is refused the same way.
 */
import type { Client } from '@elastic/elasticsearch';
import { withWriterLock } from '../../core/ports/writer-lock.js';
import { reindex, type ReindexReport } from './aliases.js';
import { loadIndexDefinition, withReplicas } from './index-definition.js';
import { ElasticsearchListingStore } from './listing-store.js';

export interface LockedReindexOptions {
  alias: string;
  writerLeaseMs?: number;
  /** ES_INDEX_REPLICAS: the new generation's replica count, else the mapping file's. */
  replicas?: number;
  onProgress?: (copied: number) => void;
}

export async function reindexUnderLock(client: Client, options: LockedReindexOptions): Promise<ReindexReport> {
  const store = new ElasticsearchListingStore(client, { alias: options.alias, writerLeaseMs: options.writerLeaseMs });
  return withWriterLock(store, { changesFrom: Date.now() }, () =>
    reindex(client, { alias: options.alias, definition: withReplicas(loadIndexDefinition(), options.replicas), onProgress: options.onProgress }),
  );
}
