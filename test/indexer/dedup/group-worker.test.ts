/** The grouping worker's failures reach the load (the pages it produces are compared in stage.test.ts). */
import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { groupInWorker } from '../../../indexer/dedup/group-worker-client.js';
import { loadSites } from '../../../src/core/model/sites.js';
import { GROUP_WORKER_READER_MODULE } from '../../../src/adapters/sqlite-listings/group-worker-reader.js';

describe('grouping worker', () => {
  it('a store file it cannot open fails the grouping with the reason, instead of ending it as if nothing were grouped', async () => {
    const missing = path.join(mkdtempSync(path.join(tmpdir(), 'group-worker-')), 'listings.sqlite');
    const pages = groupInWorker({ module: GROUP_WORKER_READER_MODULE, file: missing }, { sites: loadSites(), minted: () => {} }, () => ({
      now: 0,
      nextChangeSeq: () => 1,
    }));
    let failure: unknown = null;
    try {
      for await (const page of pages) expect.fail(`a page of ${page.count} from a missing store`);
    } catch (error) {
      failure = error;
    }
    expect(String(failure)).to.match(/SqliteError: unable to open database file/);
  });
});
