/**
 * The SQLite side of the grouping worker (ListingIndex.capabilities.groupWorker): the module the
 * worker thread imports by its URL to read the store on a read-only connection of its own and to
 * encode its rewrites as this adapter's rows (toRow), and the decoding of those rows by the store
 * that writes them. The encoding is JSON text of a ListingRow, made and read only here.
 */
import type { StoredListing } from '../../core/model/stored.js';
import type { EncodedGroupRow, GroupWorkerReader, GroupWorkerReaderModule } from '../../core/ports/listing-index.js';
import { ListingReads } from './read/listing-reads.js';
import { toRow, type ListingRow } from './rows/listing-row.js';

/** This module's URL: GroupWorkerSource.module of a SQLite store. */
export const GROUP_WORKER_READER_MODULE = import.meta.url;

export const openGroupWorkerReader: GroupWorkerReaderModule['openGroupWorkerReader'] = (file: string, cacheMiB: number): GroupWorkerReader => {
  const { reads, close } = ListingReads.openReadOnly(file, cacheMiB);
  return {
    lookups: {
      findBlock: async (key) => reads.findBlock(key),
      findBlocks: async (keys) => new Map(keys.map((key) => [key, reads.findBlock(key)])),
      capabilities: { storedCandidates: { findBlockCandidates: async (key) => reads.findBlockCandidates(key) } },
      getMany: async (ids) => reads.getMany(ids),
      blockKeysAfter: async (after, limit) => reads.blockKeysAfter(after, limit),
    },
    encode: (listing: StoredListing) => JSON.stringify(toRow(listing)),
    close,
  };
};

/** A row encoded by openGroupWorkerReader's `encode`, numbered in the feed when the load's thread did. */
export function decodeGroupRow({ row, change }: EncodedGroupRow): ListingRow {
  const decoded = JSON.parse(row) as ListingRow;
  if (change !== null) {
    decoded.change_seq = change.change_seq;
    decoded.changed_at = change.changed_at;
  }
  return decoded;
}
