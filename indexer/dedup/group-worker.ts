/**
 * The grouping worker (a worker thread started by group-worker-client.ts): the grouping at the end
 * of a first build (whole-base.ts regroupEveryBase) on the second core, reading the store through a
 * read-only connection of its own, while the load's thread writes what it hands back. It encodes its
 * rewrites as the store's rows (toRow: about a quarter of writing them in the load's thread, in a
 * profile of a 200k load), as JSON texts in one transferred buffer a page (encodeRows), and sends them in order, at most MAX_PAGES_AHEAD pages ahead of the writes
 * (the load writes one while the worker encodes the next), so the memory it holds stays bounded.
 *
 * Feed positions are numbered by the load's thread, which owns the counter: a rewrite whose public
 * output changed leaves here with change_seq UNNUMBERED, and its index in `touched`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ListingReads } from '../../src/adapters/sqlite-listings/listing-reads.js';
import { toRow } from '../../src/adapters/sqlite-listings/rows.js';
import { SiteCatalog } from '../../src/core/model/sites.js';
import { GROUP_WORKER_CACHE_MIB } from '../heap.js';
import { regroupEveryBase, type EveryBaseStore } from './whole-base.js';
import { boundedPoster } from '../worker-messages.js';
import { encodeRows, UNNUMBERED, type GroupWorkerData, type GroupWorkerMessage } from './group-worker-client.js';

export const MAX_PAGES_AHEAD = 2;

async function run(port: NonNullable<typeof parentPort>, data: GroupWorkerData): Promise<void> {
  const { reads, close } = ListingReads.openReadOnly(data.file, GROUP_WORKER_CACHE_MIB);
  const store: EveryBaseStore = {
    findBlock: async (key) => reads.findBlock(key),
    findBlocks: async (keys) => new Map(keys.map((key) => [key, reads.findBlock(key)])),
    capabilities: { storedCandidates: { findBlockCandidates: async (key) => reads.findBlockCandidates(key) } },
    getMany: async (ids) => reads.getMany(ids),
    blockKeysAfter: async (after, limit) => reads.blockKeysAfter(after, limit),
  };
  // The load answers each page once it has written it.
  const send = boundedPoster(port, MAX_PAGES_AHEAD);
  let minted = 0;
  const pages = regroupEveryBase(store, {
    sites: new SiteCatalog([...data.sites]),
    threshold: data.threshold,
    keysPerPage: data.keysPerPage,
    clock: () => ({ now: UNNUMBERED, nextChangeSeq: () => UNNUMBERED }),
    minted: (groups) => {
      minted += groups;
    },
  });
  try {
    for await (const page of pages) {
      const touched: number[] = [];
      page.forEach((listing, index) => {
        if (listing.change_seq === UNNUMBERED) touched.push(index);
      });
      const message = encodeRows(page.map(toRow), touched, minted);
      await send(message, [message.bytes, message.ends.buffer as ArrayBuffer]);
      minted = 0;
    }
  } finally {
    close();
  }
  port.postMessage({ ...encodeRows([], [], minted), done: true } satisfies GroupWorkerMessage);
  port.close();
}

if (parentPort) {
  try {
    await run(parentPort, workerData as GroupWorkerData);
  } catch (error) {
    // better-sqlite3's SqliteError reaches the load's thread without its message (only its own
    // properties cross the thread): a plain Error keeps the reason.
    throw error instanceof Error && error.constructor !== Error ? new Error(`${error.name}: ${error.message}`) : error;
  }
}
