import type { StoredListing } from '../../src/core/model/stored.js';

/** A batch whose listing at `at` cannot be read (its content throws): a write fails there, after the rows before it. */
export function withUnreadableListing(listings: StoredListing[], at: number): StoredListing[] {
  const poisoned = Object.defineProperty({ ...listings[at] }, 'content', {
    get() {
      throw new Error('unreadable listing');
    },
  });
  return [...listings.slice(0, at), poisoned, ...listings.slice(at + 1)];
}
