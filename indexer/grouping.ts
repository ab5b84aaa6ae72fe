/**
 * The grouping stage of a load: given the listings a batch writes, returns every listing to write
 * (the batch plus the members of their duplicate groups whose group fields changed).
 */
import type { StoredListing } from '../src/core/model/stored.js';
import type { ListingIndex, WriteFailure } from '../src/core/ports/listing-index.js';
import type { MergeClock } from './merge.js';

export interface GroupingStage {
  /** Called once before a load's first batch, with the store it writes to. */
  begin?(store: ListingIndex): Promise<void>;
  /** `before`: the stored state of the batch's listings, when the caller has read it (absent ids: new listings). */
  apply(batch: StoredListing[], store: ListingIndex, clock: MergeClock, before?: ReadonlyMap<string, StoredListing>): Promise<StoredListing[]>;
  /**
   * Called once after a load's last batch: what the stage still has to write, a page at a time (a
   * stage that left its work to the end of the load). `clock` gives each page its change_seqs.
   */
  finish?(store: ListingIndex, clock: () => MergeClock): AsyncIterable<GroupWritePage>;
  /** Groups formed so far in this load (for the report). */
  readonly groupsFormed: number;
  /** Whether finish() grouped in a worker thread (for the report). */
  readonly groupedInWorker?: boolean;
}

/** A page of what a stage's finish() rewrites, and how it is written. */
export interface GroupWritePage {
  /** Listings the page rewrites. */
  readonly count: number;
  write(store: ListingIndex): Promise<WriteFailure[]>;
}

/** A page of whole listings, written as group fields only (upsertGroupFields). */
export function listingsPage(listings: StoredListing[]): GroupWritePage {
  return { count: listings.length, write: (store) => store.upsertGroupFields(listings) };
}

/** No cross-site grouping: every listing is its own group (dedup_key null, no sources[]). */
export class SingletonGrouping implements GroupingStage {
  readonly groupsFormed = 0;
  async apply(batch: StoredListing[]): Promise<StoredListing[]> {
    return batch;
  }
}
