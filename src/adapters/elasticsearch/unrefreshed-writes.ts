/**
 * What a store wrote since its last refresh, so that a block read refreshes only when it needs those
 * writes. A search sees the index as of the last refresh: a block read misses a listing written into
 * the block since, and may still find one written out of it (its previous version). So a read of
 * blocks refreshes first when a listing written since is in one of them, and refreshes and reads
 * again when it finds a listing written since. A refresh writes a segment: in a daily load most
 * batches read blocks the previous batch did not touch, and skip it.
 *
 * Bounded: past MAX_TRACKED listings the writes are forgotten and every read refreshes, as when
 * nothing was tracked.
 */
import { blockKeyOf } from '../../core/dedup/block-key.js';
import type { StoredListing } from '../../core/model/stored.js';

const MAX_TRACKED = 100_000;

export class UnrefreshedWrites {
  private readonly ids = new Set<string>();
  /** Blocks of the listings written, whatever their status (a withdrawal read finds inactive ones). */
  private readonly blocks = new Set<string>();
  private untracked = false;

  /** Something was written since the last refresh. */
  get any(): boolean {
    return this.untracked || this.ids.size > 0;
  }

  wrote(listings: readonly StoredListing[]): void {
    if (this.untracked) return;
    for (const listing of listings) {
      this.ids.add(listing.id);
      const key = blockKeyOf(listing);
      if (key !== null) this.blocks.add(key);
    }
    if (this.ids.size > MAX_TRACKED) {
      this.clear();
      this.untracked = true;
    }
  }

  /** Whether a listing written since is in one of these blocks (a read of them must refresh first). */
  reaches(blockKeys: readonly string[]): boolean {
    return this.untracked || blockKeys.some((key) => this.blocks.has(key));
  }

  /** Whether one of these listings was written since (its hit may be its previous version). */
  holdsAny(ids: Iterable<string>): boolean {
    if (this.untracked) return true;
    for (const id of ids) if (this.ids.has(id)) return true;
    return false;
  }

  clear(): void {
    this.ids.clear();
    this.blocks.clear();
    this.untracked = false;
  }
}
