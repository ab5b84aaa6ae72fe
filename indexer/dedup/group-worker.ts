/**
 * The grouping worker (a worker thread started by group-worker-client.ts): the grouping at the end
 * of a first build (whole-base.ts regroupEveryBase) on the second core, reading the store through a
 * read-only connection of its own, while the load's thread writes what it hands back. The store is
 * opened by the engine's own module (GroupWorkerSource, src/core/ports/listing-index.ts), which also
 * encodes the rewrites as the store's rows (about a quarter of writing them in the load's thread, in
 * a profile of a 200k load); they travel as texts in one transferred buffer a page (encodeRows), at
 * most MAX_PAGES_AHEAD pages ahead of the writes (the load writes one while the worker encodes the
 * next), so the memory it holds stays bounded.
 *
 * Feed positions are numbered by the load's thread, which owns the counter: a rewrite whose public
 * output changed leaves here with change_seq UNNUMBERED, and its index in `touched`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { GroupWorkerReaderModule } from '../../src/core/ports/listing-index.js';
import { SiteCatalog } from '../../src/core/model/sites.js';
import { GROUP_WORKER_CACHE_MIB } from '../heap.js';
import { regroupEveryBase } from './whole-base.js';
import { boundedPoster } from '../worker-messages.js';
import { encodeRows, UNNUMBERED, type GroupWorkerData, type GroupWorkerMessage } from './group-worker-client.js';

export const MAX_PAGES_AHEAD = 2;

async function run(port: NonNullable<typeof parentPort>, data: GroupWorkerData): Promise<void> {
  const engine = (await import(data.source.module)) as GroupWorkerReaderModule;
  const { lookups, encode, close } = engine.openGroupWorkerReader(data.source.file, GROUP_WORKER_CACHE_MIB);
  // The load answers each page once it has written it.
  const send = boundedPoster(port, MAX_PAGES_AHEAD);
  let minted = 0;
  const pages = regroupEveryBase(lookups, {
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
      const message = encodeRows(page.map(encode), touched, minted);
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
