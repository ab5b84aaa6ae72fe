/**
 * A reindex under the alias's writer lock, whichever command runs it (`npm run indexer -- reindex`
 * through src/open-listing-store.ts, or this adapter's cli.ts). The copy runs while loads go on;
 * the catch-up of their writes and the alias swap run holding the lock, so no write reaches the old
 * generation after it was caught up. A load running then is waited for (LOCK_WAIT_MS at most), and
 * a load started meanwhile is refused (exit 3) until the swap is done.
 */
import type { Client } from '@elastic/elasticsearch';
import { WriterBusyError, withWriterLock } from '../../core/ports/writer-lock.js';
import { reindex, type ReindexReport } from './aliases.js';
import { loadIndexDefinition, shardsFor, withReplicas, withShards } from './index-definition.js';
import { ElasticsearchListingStore } from './listing-store.js';

const LOCK_WAIT_MS = 30 * 60_000;
const LOCK_RETRY_MS = 2_000;

export interface LockedReindexOptions {
  alias: string;
  writerLeaseMs?: number;
  /** ES_INDEX_REPLICAS: the new generation's replica count, else the mapping file's. */
  replicas?: number;
  /** The new generation's primary shards (`reindex --shards N`), else as many as the catalogue's size calls for (shardsFor). */
  shards?: number | null;
  onProgress?: (copied: number) => void;
  /** Told each time the lock is found held, before waiting for it. */
  onWaitForLock?: (error: WriterBusyError) => void;
  lockWaitMs?: number;
}

export async function reindexUnderLock(client: Client, options: LockedReindexOptions): Promise<ReindexReport & { shards: number }> {
  const store = new ElasticsearchListingStore(client, { alias: options.alias, writerLeaseMs: options.writerLeaseMs });
  const deadline = Date.now() + (options.lockWaitMs ?? LOCK_WAIT_MS);
  const underLock = async <T>(work: () => Promise<T>): Promise<T> => {
    for (;;) {
      try {
        return await withWriterLock(store, { changesFrom: Date.now() }, work);
      } catch (error) {
        if (!(error instanceof WriterBusyError) || Date.now() > deadline) throw error;
        options.onWaitForLock?.(error);
        await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
      }
    }
  };
  const shards = options.shards ?? shardsFor(await store.count());
  const definition = withShards(withReplicas(loadIndexDefinition(), options.replicas), shards);
  return { ...(await reindex(client, { alias: options.alias, definition, onProgress: options.onProgress, underLock })), shards };
}
