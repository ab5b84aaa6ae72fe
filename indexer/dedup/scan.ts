/**
 * Reads the whole catalogue through the ListingStore port, page by page (constant memory), so the
 * rebuild and the evaluation work on every backend: active listings through the feed, the others
 * through the withdrawn flow, each in the order of the indexer's writes.
 */
import type { StoredListing } from '../../src/core/model/stored.js';
import type { SortPosition } from '../../src/core/query/query.js';
import type { ListingStore } from '../../src/core/ports/listing-store.js';

const EVERYTHING = { enteredFrom: Number.MIN_SAFE_INTEGER, eligibleSites: null };

export async function* scanListings(store: ListingStore, which: 'active' | 'inactive' | 'all', pageSize = 1000): AsyncGenerator<StoredListing[]> {
  if (which !== 'inactive') {
    let after: SortPosition | null = null;
    for (;;) {
      const page = await store.feed({ filter: {}, scope: EVERYTHING, changedUntil: Number.MAX_SAFE_INTEGER, pageSize, after });
      if (page.items.length > 0) yield page.items;
      if (!page.hasMore || !page.last) break;
      after = page.last;
    }
  }
  if (which !== 'active') {
    let after: SortPosition | null = null;
    for (;;) {
      const page = await store.withdrawn({ scope: EVERYTHING, changedUntil: Number.MAX_SAFE_INTEGER, pageSize, after });
      if (page.items.length > 0) yield page.items;
      if (!page.hasMore || !page.last) break;
      after = page.last;
    }
  }
}
