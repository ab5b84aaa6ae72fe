/**
 * SQLite listings stores in new temporary files, for the tests of the SQLite adapter and its
 * conformance runs.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { StoredListing } from '../../src/core/model/stored.js';
import type { SearchQuery } from '../../src/core/query/query.js';
import { SqliteListingStore, type SqliteListingStoreOptions } from '../../src/adapters/sqlite-listings/listing-store.js';
import type { StatementCache } from '../../src/adapters/sqlite-shared/statements.js';

/** A listings file in a new temporary directory. */
export const newStoreFile = (prefix: string): string => path.join(mkdtempSync(path.join(tmpdir(), `${prefix}-`)), 'listings.sqlite');

/** A store in a new file holding `listings`. */
export async function storeHolding(prefix: string, listings: StoredListing[], options: SqliteListingStoreOptions = {}) {
  const file = newStoreFile(prefix);
  const store = new SqliteListingStore(file, options);
  await store.upsertMany(listings);
  return { file, store };
}

/** The store's search with the plan of the page statement it ran (the one with an ORDER BY). */
export function planned(store: SqliteListingStore) {
  const statements = (store as unknown as { statements: StatementCache }).statements;
  const get = statements.get.bind(statements);
  let ordered = '';
  statements.get = (sql: string) => {
    if (sql.includes('ORDER BY')) ordered = sql;
    return get(sql);
  };
  return async (query: SearchQuery) => {
    const page = await store.search(query);
    const unbound = Array((ordered.match(/\?/g) ?? []).length).fill(null);
    const plan = (store.database.prepare(`EXPLAIN QUERY PLAN ${ordered}`).all(...unbound) as { detail: string }[]).map((r) => r.detail).join(' | ');
    return { page, plan };
  };
}
