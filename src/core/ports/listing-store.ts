/**
^ * The two listing ports together. An engine's adapter implements both ListingReader (the API's
 * reads, listing-reader.ts) and ListingIndex (the indexer's writes and lookups, listing-index.ts);
 * the composition (src/open-listing-store.ts) and the tests hold it as a ListingStore.
 */
import type { ListingReader } from './listing-reader.js';
import type { ListingIndex } from './listing-index.js';

export type ListingStore = ListingReader & ListingIndex;
