/**
 * The load's side of the grouping worker (group-worker.ts): starts it on the store's file, and turns
 * each page of rows it sends into a GroupWritePage that numbers the page's feed changes (the load's
 * clock owns the change_seq counter) and writes the rows. Stopping early (the load failed)
 * terminates the worker; a failure in the worker is thrown here.
 */
import { Worker } from 'node:worker_threads';
import type { SiteCatalog, Site } from '../../src/listings/sites.js';
import type { ListingRow } from '../../src/stores/sqlite/rows.js';
import type { ListingStore, WriteFailure } from '../../src/stores/listing-store.js';
import type { GroupWritePage } from '../grouping.js';
import type { MergeClock } from '../merge.js';
import { GROUP_WORKER_LIMITS } from '../heap.js';
import { workerMessages } from '../worker-messages.js';

/** change_seq and changed_at of a rewrite the load's thread has to number (real change_seqs start at 1). */
export const UNNUMBERED = -1;

export interface GroupWorkerData { file: string; sites: readonly Site[]; threshold?: number; keysPerPage?: number }

/** A page of encoded rewrites, in the order of the grouping; the last message has `done`. */
export interface GroupWorkerMessage {
  rows: ListingRow[];
  /** Indexes in `rows` of the rewrites whose public output changed (UNNUMBERED). */
  touched: number[];
  /** Group keys minted since the previous message. */
  minted: number;
  done?: boolean;
}

/** The store the rows are written to: the SQLite store, whose rows these are (only it lends its file, fileForReaders). */
interface RowWriter { upsertGroupRows(rows: ListingRow[]): Promise<WriteFailure[]> }

export async function* groupInWorker(
  file: string,
  options: { sites: SiteCatalog; threshold?: number; keysPerPage?: number; minted: (groups: number) => void },
  clock: () => MergeClock,
): AsyncGenerator<GroupWritePage> {
  const worker = new Worker(new URL('./group-worker-entry.mjs', import.meta.url), {
    workerData: { file, sites: options.sites.sites, threshold: options.threshold, keysPerPage: options.keysPerPage } satisfies GroupWorkerData,
    resourceLimits: GROUP_WORKER_LIMITS,
  });
  for await (const message of workerMessages<GroupWorkerMessage>(worker, 'grouping worker')) {
    options.minted(message.minted);
    if (message.done) return;
    yield rowsPage(message, clock);
    // Written: the worker may send one more page.
    worker.postMessage(0);
  }
  throw new Error('grouping worker stopped before the end of the grouping');
}

function rowsPage({ rows, touched }: GroupWorkerMessage, clock: () => MergeClock): GroupWritePage {
  return {
    count: rows.length,
    write: async (store: ListingStore) => {
      const now = clock();
      for (const index of touched) {
        rows[index].change_seq = now.nextChangeSeq();
        rows[index].changed_at = now.now;
      }
      return (store as ListingStore & RowWriter).upsertGroupRows(rows);
    },
  };
}
