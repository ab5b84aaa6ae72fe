/**
 * The engine-neutral ListingStore conformance suite on the SQLite store, in each full-text plan.
 * What only the SQLite store does is tested in test/adapters/sqlite-listings/.
 */
import { SqliteListingStore } from '../../src/adapters/sqlite-listings/listing-store.js';
import { newStoreFile } from '../support/sqlite-store-files.js';
import { runListingStoreConformance } from './listing-store.suite.js';

runListingStoreConformance('sqlite', async () => new SqliteListingStore(newStoreFile('ls')));
// The small conformance catalogue never makes a word common enough for the index-first plan: forced
// here, with its in-memory document sets (text-sets.ts) and without them (a check per row in FTS5).
runListingStoreConformance(
  'sqlite, full text index first with document sets',
  async () => new SqliteListingStore(newStoreFile('ls'), { textPlan: 'index-first' }),
);
// Text first forced: with a department, documents are checked in the department's row set first.
runListingStoreConformance('sqlite, full text first with department sets', async () => new SqliteListingStore(newStoreFile('ls'), { textPlan: 'text-first' }));
runListingStoreConformance(
  'sqlite, full text index first checked in FTS5',
  async () => new SqliteListingStore(newStoreFile('ls'), { textPlan: 'index-first', textSets: false }),
);
