/**
 * Reads the whole catalogue through the ListingIndex port, page by page (constant memory), so the
 * rebuild and the evaluation work on every backend: active listings, then the others, each in the
 * order of the indexer's writes (ListingIndex.catalogue).
 */
import type { StoredListing } from '../../src/core/model/stored.js';
import type { SortPosition } from '../../src/core/query/query.js';
import type { ListingIndex } from '../../src/core/ports/listing-index.js';

export async function* scanListings(
  store: Pick<ListingIndex, 'catalogue'>,
  which: 'active' | 'inactive' | 'all',
  pageSize = 1000,
): AsyncGenerator<StoredListing[]> {
  if (which !== 'inactive') {
    let after: SortPosition | null = null;
    for (;;) {
      const page = await store.catalogue('active', after, pageSize);
      if (page.items.length > 0) yield page.items;
      if (!page.hasMore || !page.last) break;
      after = page.last;
    }
  }
  if (which !== 'active') {
    let after: SortPosition | null = null;
    for (;;) {
      const page = await store.catalogue('inactive', after, pageSize);
      if (page.items.length > 0) yield page.items;
      if (!page.hasMore || !page.last) break;
      after = page.last;
    }
  }
}
