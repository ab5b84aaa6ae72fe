/**
 * A first build kept aside (indexer/first-build/): the file holds the listings as the load's lookups
 * read them, and the write at the end sends each listing once, a page at a time, reading the next
 * page while the previous one is written, never two writes at once.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { AsideFile } from '../../indexer/first-build/aside-file.js';
import { writeOnce } from '../../indexer/first-build/write-once.js';
import { blockKeyOf } from '../../src/core/dedup/block-key.js';
import type { StoredListing } from '../../src/core/model/stored.js';
import { makeListings } from '../support/fixtures.js';

describe('a first build kept aside', () => {
  const listings = makeListings({ count: 250, seed: 5 });

  it('the file answers the lookups of a load: by id, by block, withdrawn, block keys in order; close deletes it', () => {
    const file = AsideFile.open();
    const dir = (file as unknown as { dir: string }).dir;
    try {
      file.put(listings);
      expect(file.count()).to.equal(listings.length);
      const some = [listings[3].id, 'nope:1', listings[7].id];
      expect([...file.get(some).keys()]).to.deep.equal([listings[3].id, listings[7].id]);
      expect(file.get([listings[3].id]).get(listings[3].id)).to.deep.equal(JSON.parse(JSON.stringify(listings[3])));

      const active = listings.filter((l) => l.status === 'active' && blockKeyOf(l) !== null);
      const keys = [...new Set(active.map((l) => blockKeyOf(l)!))].sort();
      const read: string[] = [];
      for (let after: string | null = null; ; ) {
        const page = file.blockKeysAfter(after, 7);
        read.push(...page);
        if (page.length < 7) break;
        after = page.at(-1)!;
      }
      expect(read).to.deep.equal(keys);
      const blocks = file.activeInBlocks(keys.slice(0, 3));
      for (const key of keys.slice(0, 3)) {
        const expected = active.filter((l) => blockKeyOf(l) === key).map((l) => l.id);
        expect(blocks.get(key)!.map((l) => l.id)).to.deep.equal(expected.sort());
      }
      const gone = listings.filter((l) => l.status !== 'active' && l.left_market_at !== null && blockKeyOf(l) !== null);
      const goneKeys = [...new Set(gone.map((l) => blockKeyOf(l)!))];
      expect(file.withdrawnInBlocks(goneKeys, 0).map((l) => l.id)).to.have.members(gone.map((l) => l.id));

      // A listing written again keeps its place and takes its new state.
      file.put([{ ...listings[0], dedup_key: 'g1' }]);
      expect(file.count()).to.equal(listings.length);
      expect(file.page(0, 1).listings[0].dedup_key).to.equal('g1');
    } finally {
      file.close();
    }
    expect(existsSync(dir)).to.equal(false);
  });

  it('writes every listing once, pages read while the previous one is in flight, one write at a time', async () => {
    const events: string[] = [];
    let inFlight = 0;
    let most = 0;
    const pages = (after: number, limit: number) => {
      events.push(`read ${after}`);
      const slice = listings.slice(after, after + limit);
      return { listings: slice, last: after + slice.length };
    };
    const written: StoredListing[] = [];
    const writePage = async (page: StoredListing[]) => {
      inFlight++;
      most = Math.max(most, inFlight);
      events.push(`write ${page.length}`);
      await sleep(20);
      written.push(...page);
      inFlight--;
      return page[0] === listings[100] ? [{ id: page[0].id, reason: 'refused' }] : [];
    };
    const progress: number[] = [];
    const refused = await writeOnce({ page: pages }, writePage, { pageSize: 100, onPage: ({ written }) => progress.push(written) });
    expect(written.map((l) => l.id)).to.deep.equal(listings.map((l) => l.id));
    expect(refused).to.deep.equal([{ id: listings[100].id, reason: 'refused' }]);
    expect(progress).to.deep.equal([100, 99, 50]);
    expect(most).to.equal(1);
    // The second page is read before the first write ends.
    expect(events.slice(0, 3)).to.deep.equal(['read 0', 'write 100', 'read 100']);
  });
});
