/**
 * Opens the listings store the configuration names: Elasticsearch when ES_URL is set, else SQLite.
 * The one place outside the adapters that knows the engines: the API holds the store as its
 * ListingReader, the indexer as its ListingIndex, and the indexer's maintenance commands call
 * the engine's own procedure through reindexListingStore.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config/config.js';
import type { ListingStore } from './core/ports/listing-store.js';
import { SqliteListingStore, type SqliteListingStoreOptions } from './adapters/sqlite-listings/listing-store.js';

/** `sqlite`: options of the SQLite store (the indexer sizes its own page cache). */
export async function openListingStore(config: Config, sqlite: SqliteListingStoreOptions = {}): Promise<ListingStore> {
  if (config.elasticsearch) {
    const { openElasticsearchStore } = await import('./adapters/elasticsearch/open.js');
    return openElasticsearchStore(config.elasticsearch);
  }
  mkdirSync(config.dataDir, { recursive: true });
  return new SqliteListingStore(config.listingsFile, sqlite);
}

/**
 * The embedded store of a folder (its listings.sqlite, as DATA_DIR would hold it), whatever ES_URL
 * says: the dedup evaluations load scratch stores of their own there.
 */
export function openFolderListingStore(dataDir: string): ListingStore {
  mkdirSync(dataDir, { recursive: true });
  return new SqliteListingStore(path.join(dataDir, 'listings.sqlite'));
}

/**
 * `npm run indexer -- reindex`. Elasticsearch: a new generation of the index built from mappings/
 * and the alias swapped (aliases.ts reindex), under the writer lock since writes reaching the old
 * generation during the copy would be lost. SQLite: the full-text index and the changed indexes
 * rebuilt, then ANALYZE (SqliteListingStore.rebuildIndexes). Returns the command's report.
 */
export async function reindexListingStore(config: Config, onProgress: (copied: number) => void): Promise<unknown> {
  if (config.elasticsearch) {
    const { createElasticsearchClient } = await import('./adapters/elasticsearch/client.js');
    const { reindexUnderLock } = await import('./adapters/elasticsearch/locked-reindex.js');
    const { alias, writerLeaseMs, replicas } = config.elasticsearch;
    const client = createElasticsearchClient(config.elasticsearch, { requestTimeout: 120_000 });
    try {
      return await reindexUnderLock(client, { alias, writerLeaseMs, replicas, onProgress });
    } finally {
      await client.close();
    }
  }
  const store = new SqliteListingStore(config.listingsFile);
  try {
    const started = Date.now();
    store.rebuildIndexes();
    return { backend: 'sqlite', listings: await store.count(), seconds: (Date.now() - started) / 1000 };
  } finally {
    await store.close();
  }
}
