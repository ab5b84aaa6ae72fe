/** The bench's full-text table (text-plans.ts): which plan the store chose, and both plans timed. */
import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SqliteListingStore } from '../../src/adapters/sqlite-listings/listing-store.js';
import { makeListings } from '../support/fixtures.js';
import { measureTextPlans } from '../../scripts/bench/text-plans.js';

describe('bench: full text + filters, both plans and the per-query choice', () => {
  it('reports text first for a rare word with a department, whichever of its two forms the store ran', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'tp-')), 'listings.sqlite');
    const listings = makeListings({ count: 200, seed: 12 }).map((l, i) => ({
      ...l,
      status: 'active' as const,
      has_photos: true,
      group_sites_ahead: [],
      content: { ...l.content, title: i % 10 === 0 ? `Pigeonnier ${i}` : l.content.title },
    }));
    const store = new SqliteListingStore(file);
    await store.upsertMany(listings);
    await store.close();
    const paths = ['/annonces?q=pigeonnier&dept=75', '/annonces?q=pigeonnier&dept=69'];
    const [withSets] = await measureTextPlans(file, 0, 'x'.repeat(32), [{ label: 'rare word + dept', words: 'pigeonnier', paths }], () => 20, 2);
    // In a 200-listing store every word is rare: text first, from the two sets' intersection (json_each).
    expect(withSets.chosen).to.equal('text-first');
    expect(withSets.explain['text-first']).to.match(/SCAN j VIRTUAL TABLE/);
    expect(withSets.explain['index-first']).to.match(/USING (COVERING )?INDEX ix_main_dept_recent/);
    for (const ms of [withSets.textFirstMs, withSets.indexFirstMs, withSets.indexFirstFtsMs, withSets.chosenMs])
      expect(ms).to.be.a('number').and.be.at.least(0);
  });
});
