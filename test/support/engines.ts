/**
 * The listing engines every engine-neutral test runs on: SQLite always, Elasticsearch when ES_URL is
 * set. `.ci/run` starts a node and sets REQUIRE_ALL_ENGINES, so there a missing cluster fails the run
 * instead of skipping half of it.
 */
import type { ListingStore } from '../../src/core/ports/listing-store.js';
import type { StoredListing } from '../../src/core/model/stored.js';
import { SqliteListingStore } from '../../src/adapters/sqlite-listings/listing-store.js';
import { elasticsearchMissing, openTestElasticsearchStore, securedMissing } from './elasticsearch.js';

/**
 * `elasticsearch-secured`: the same engine on a cluster with security on, TLS and the indexer's
 * least-privilege role; the conformance suites run on it too (CONFORMANCE_ENGINES).
 */
export type Engine = 'sqlite' | 'elasticsearch' | 'elasticsearch-secured';
export const ENGINES: readonly Engine[] = ['sqlite', 'elasticsearch'];
export const CONFORMANCE_ENGINES: readonly Engine[] = [...ENGINES, 'elasticsearch-secured'];

/** Why this engine cannot run here (null: it can). */
export function engineMissing(engine: Engine): string | null {
  if (engine === 'elasticsearch-secured') return securedMissing();
  return engine === 'elasticsearch' ? elasticsearchMissing() : null;
}

/** A store of an Elasticsearch engine on a new alias, deleted when closed. */
export function openElasticsearchEngineStore(engine: Exclude<Engine, 'sqlite'>, prefix: string): Promise<ListingStore> {
  return openTestElasticsearchStore(prefix, {}, engine === 'elasticsearch-secured');
}

/**
 * `describe(title [engine], body)` once per engine (`engines`: ENGINES unless said). An engine that
 * cannot run is reported as one skipped test with its reason, or as a failure when
 * REQUIRE_ALL_ENGINES is set.
 */
export function describeEngines(title: string, body: (this: Mocha.Suite, engine: Engine) => void, engines: readonly Engine[] = ENGINES): void {
  for (const engine of engines) {
    const missing = engineMissing(engine);
    describe(`${title} [${engine}]`, function () {
      if (missing === null) return body.call(this, engine);
      it(`runs on ${engine}`, function () {
        if (process.env.REQUIRE_ALL_ENGINES) throw new Error(`${engine} is required here: ${missing}`);
        this.skip();
      });
    });
  }
}

/**
 * An empty store of the engine for a test, or undefined for SQLite (the service then opens its own
 * file in the test's data directory, as npm start does).
 */
export async function openEngineStore(engine: Engine, prefix = 'test'): Promise<ListingStore | undefined> {
  return engine === 'sqlite' ? undefined : openElasticsearchEngineStore(engine, prefix);
}

/**
 * A store of the engine holding `listings` for the enclosing suite: opened and filled before its
 * tests, closed (an Elasticsearch index deleted) after them. SQLite: an in-memory file.
 */
export function storeHolding(engine: Engine, prefix: string, listings: StoredListing[]): () => ListingStore {
  let store: ListingStore | undefined;
  before(async () => {
    store = engine === 'sqlite' ? new SqliteListingStore(':memory:') : await openElasticsearchEngineStore(engine, prefix);
    await store.upsertMany(listings);
  });
  after(async () => {
    await store?.close();
  });
  return () => store!;
}
