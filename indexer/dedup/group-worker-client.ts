/**
 * The load's side of the grouping worker (group-worker.ts): starts it on the store's source (its
 * engine's module and file, the groupWorker capability), and turns
 * each page of rows it sends into a GroupWritePage that numbers the page's feed changes (the load's
 * clock owns the change_seq counter) and writes the rows. Stopping early (the load failed)
 * terminates the worker; a failure in the worker is thrown here.
 */
import { Worker } from 'node:worker_threads';
import type { SiteCatalog, Site } from '../../src/core/model/sites.js';
import type { EncodedRow, GroupWorkerSource, ListingIndex } from '../../src/core/ports/listing-index.js';
import type { GroupWritePage } from '../grouping.js';
import type { MergeClock } from '../merge.js';
import { GROUP_WORKER_LIMITS } from '../heap.js';
import { workerMessages } from '../worker-messages.js';

/** change_seq and changed_at of a rewrite the load's thread has to number (real change_seqs start at 1). */
export const UNNUMBERED = -1;

export interface GroupWorkerData {
  source: GroupWorkerSource;
  sites: readonly Site[];
  threshold?: number;
  keysPerPage?: number;
}

/**
 * A page of encoded rewrites, in the order of the grouping; the last message has `done`. The rows are
 * JSON texts side by side in one transferred buffer (`bytes`, row i from ends[i - 1] to ends[i]), not
 * row objects: a page of objects was copied into the load's heap at once and outlived its young
 * generation there, raising the load's memory peak; a row decoded just before its write dies young,
 * as in the load's own grouping.
 */
export interface GroupWorkerMessage {
  bytes: ArrayBuffer;
  ends: Uint32Array;
  /** Indexes of the rewrites whose public output changed (UNNUMBERED). */
  touched: number[];
  /** Group keys minted since the previous message. */
  minted: number;
  done?: boolean;
}

/** The message of a page of rows (the worker's side), its buffer ready to be transferred. */
export function encodeRows(rows: readonly EncodedRow[], touched: number[], minted: number): GroupWorkerMessage {
  const texts = rows.map((row) => Buffer.from(row));
  const ends = new Uint32Array(texts.length);
  let end = 0;
  texts.forEach((text, index) => {
    end += text.length;
    ends[index] = end;
  });
  // A buffer of its own (not a slice of Node's shared pool), so that it can be transferred.
  const bytes = new ArrayBuffer(end);
  const view = Buffer.from(bytes);
  texts.forEach((text, index) => text.copy(view, index === 0 ? 0 : ends[index - 1]));
  return { bytes, ends, touched, minted };
}

export async function* groupInWorker(
  source: GroupWorkerSource,
  options: { sites: SiteCatalog; threshold?: number; keysPerPage?: number; minted: (groups: number) => void },
  clock: () => MergeClock,
): AsyncGenerator<GroupWritePage> {
  const worker = new Worker(new URL('./group-worker-entry.mjs', import.meta.url), {
    workerData: { source, sites: options.sites.sites, threshold: options.threshold, keysPerPage: options.keysPerPage } satisfies GroupWorkerData,
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

function rowsPage({ bytes, ends, touched }: GroupWorkerMessage, clock: () => MergeClock): GroupWritePage {
  const text = Buffer.from(bytes);
  return {
    count: ends.length,
    write: async (store: ListingIndex) => {
      const now = clock();
      // Numbered in page order, as the load's own grouping numbers them.
      const positions = new Map(touched.map((index) => [index, now.nextChangeSeq()]));
      // The store that lent its file (the groupWorker capability) writes the rows it reads.
      const writer = store.capabilities.groupWorker;
      if (writer === null) throw new Error(`a ${store.backend} store cannot write the grouping worker's rows`);
      return writer.upsertGroupRows(ends.length, (index) => {
        const position = positions.get(index);
        return {
          row: text.toString('utf8', index === 0 ? 0 : ends[index - 1], ends[index]),
          change: position === undefined ? null : { change_seq: position, changed_at: now.now },
        };
      });
    },
  };
}
