/**
 * Stored duplicate-detection features of the SQLite store (dedup_features, ix_block): what a load's
 * grouping reads of a block's candidates, and what reindex fills in a store of older code.
 */
import { expect } from 'chai';
import { SqliteListingStore } from '../../../src/adapters/sqlite-listings/listing-store.js';
import { BLOCK_CANDIDATES_SQL } from '../../../src/adapters/sqlite-listings/read/listing-reads.js';
import type { StoredListing } from '../../../src/core/model/stored.js';
import { makeListings } from '../../support/fixtures.js';
import { blockKeyOf } from '../../../src/core/dedup/block-key.js';
import { featuresOf, PartlyStoredFeatures } from '../../../src/core/dedup/features.js';
import { plainFeatures } from '../../support/candidates.js';
import type { BlockCandidate } from '../../../src/core/ports/listing-index.js';
import { clusterAround } from '../../../indexer/dedup/cluster.js';
import { storeHolding } from '../../support/sqlite-store-files.js';

describe('SQLite store: stored duplicate-detection features (findBlockCandidates)', () => {
  const plain = plainFeatures;
  const readCount = (candidates: BlockCandidate[]) => candidates.filter((c) => (c.features as PartlyStoredFeatures).read).length;
  const blocksOf = (listings: StoredListing[]) => [
    ...new Set(
      listings
        .filter((l) => l.status === 'active')
        .map((l) => blockKeyOf(l))
        .filter((k): k is string => k !== null),
    ),
  ];
  const featureRows = (store: SqliteListingStore) => (store.database.prepare('SELECT count(*) AS n FROM dedup_features').get() as { n: number }).n;

  /** Every block's candidates are findBlock's listings, with the features featuresOf computes from them. */
  async function expectCandidatesMatch(store: SqliteListingStore, listings: StoredListing[]) {
    for (const key of blocksOf(listings)) {
      const whole = new Map((await store.findBlock(key)).map((l) => [l.id, l]));
      const candidates = await store.findBlockCandidates(key);
      expect(candidates.map((c) => c.id).sort()).to.deep.equal([...whole.keys()].sort());
      for (const candidate of candidates) {
        const listing = whole.get(candidate.id)!;
        expect(plain(candidate.features)).to.deep.equal(plain(featuresOf(listing)));
        expect(candidate).to.include({
          dedup_key: listing.dedup_key,
          change_seq: listing.change_seq,
          catalogue_entered_at: listing.catalogue_entered_at,
          block_key: key,
        });
      }
    }
  }

  it('keeps features for exactly the active listings that have a block, equal to those of the listing', async () => {
    const listings = makeListings({ count: 120, seed: 5 }).map((l, i) =>
      i % 9 === 0
        ? // Completed fields are not the listing's own: its features must leave them out.
          { ...l, content: { ...l.content, description: null, surface: null }, completed_from: {} }
        : l,
    );
    const withCompletion = {
      ...listings[1],
      content: { ...listings[1].content, description: "Texte repris d'un autre site, très lumineux." },
      completed_from: { description: 'site-b' },
    };
    listings[1] = withCompletion;
    const { store } = await storeHolding('feat', listings);
    const blockable = listings.filter((l) => l.status === 'active' && blockKeyOf(l) !== null);
    expect(blockable.length).to.be.greaterThan(50);
    expect(featureRows(store)).to.equal(blockable.length);
    expect(featuresOf(withCompletion).hasText).to.equal(false);
    await expectCandidatesMatch(store, listings);

    // A listing that leaves the market leaves its block: its features go.
    const leaving = blockable[0];
    await store.upsertMany([{ ...leaving, status: 'vendue' }]);
    expect(featureRows(store)).to.equal(blockable.length - 1);
    expect((await store.findBlockCandidates(blockKeyOf(leaving)!)).map((c) => c.id)).to.not.include(leaving.id);
    await store.close();
  });

  it("lists the active listings' block keys page by page, in order, each once (blockKeysAfter)", async () => {
    const listings = makeListings({ count: 150, seed: 13 });
    const { store } = await storeHolding('block-keys', listings);
    const expected = blocksOf(listings).sort();
    expect(expected.length).to.be.above(20);
    // An inactive listing's block is not listed unless an active listing holds it.
    expect(listings.some((l) => l.status !== 'active' && blockKeyOf(l) !== null && !expected.includes(blockKeyOf(l)!))).to.equal(true);
    const paged: string[] = [];
    for (let after: string | null = null; ; ) {
      const page = await store.blockKeysAfter(after, 7);
      paged.push(...page);
      if (page.length < 7) break;
      after = page[page.length - 1];
    }
    expect(paged).to.deep.equal(expected);
    await store.close();
  });

  it('a rewrite of group fields only (upsertGroupFields) keeps the stored features and writes the rest', async () => {
    const listings = makeListings({ count: 40, seed: 17 });
    const { store } = await storeHolding('group-fields', listings);
    const listing = listings.find((l) => l.status === 'active' && blockKeyOf(l) !== null)!;
    const features = () => store.database.prepare('SELECT f.* FROM dedup_features f JOIN listings l ON l.rowid = f.rowid WHERE l.id = ?').get(listing.id);
    const before = features();
    expect(before).to.not.equal(undefined);
    // The features are not even recomputed: a caller that broke the contract (an own value changed) would not see it there.
    const rewritten = { ...listing, content: { ...listing.content, surface: 512 }, dedup_key: 'd_grouped', change_seq: listing.change_seq + 1000 };
    await store.upsertGroupFields([rewritten]);
    expect(await store.get(listing.id)).to.deep.include({ dedup_key: 'd_grouped', change_seq: listing.change_seq + 1000, content: rewritten.content });
    expect(features()).to.deep.equal(before);
    await store.upsertMany([rewritten]);
    expect(features()).to.not.deep.equal(before);
    await store.close();
  });

  it('answers whole for listings stored before the table existed; reindex stores their features', async () => {
    const listings = makeListings({ count: 60, seed: 8 });
    const { store } = await storeHolding('feat-old', listings);
    // What older code left: no features, and no own surfaces in the rows.
    store.database.exec('DELETE FROM dedup_features; UPDATE listings SET own_surface = NULL');
    await expectCandidatesMatch(store, listings);
    const someKey = blocksOf(listings)[0];
    expect((await store.findBlockCandidates(someKey)).every((c) => c.listing !== undefined)).to.equal(true);

    store.rebuildIndexes();
    expect(featureRows(store)).to.equal(listings.filter((l) => l.status === 'active' && blockKeyOf(l) !== null).length);
    expect((await store.findBlockCandidates(someKey)).every((c) => c.listing === undefined)).to.equal(true);
    await expectCandidatesMatch(store, listings);
    await store.close();
  });

  it("gives each candidate's site and own surface from the block index and reads its other features on first use", async () => {
    const template = makeListings({ count: 40, seed: 21 }).find((l) => l.status === 'active' && blockKeyOf(l) !== null && l.content.surface !== null)!;
    const sources = ['site-a', 'site-b', 'site-c', 'site-d'];
    // One block (same transaction, type, postal code and price): surfaces 40 to 96 m² two metres apart
    // (not within the 3 % limit of each other), except listing 10 at 59 m², one metre from listing 9's
    // 58; listing 29 has no surface and another text (it is compared with everyone, and matches no one).
    const surfaceOf = (i: number) => (i === 29 ? null : i === 10 ? 59 : 40 + 2 * i);
    const block = Array.from(
      { length: 30 },
      (_, i): StoredListing => ({
        ...template,
        id: `${sources[i % 4]}:blk-${i}`,
        change_seq: template.change_seq + i,
        completed_from: {},
        content: {
          ...template.content,
          source: sources[i % 4],
          reference: `blk-${i}`,
          surface: surfaceOf(i),
          rooms: null,
          ...(i === 29 ? { description: 'Local au calme, sans rapport avec les autres biens de la rue, vendu loué.' } : {}),
        },
      }),
    );
    const { store } = await storeHolding('feat-lazy', block);
    const key = blockKeyOf(block[0])!;
    expect(new Set(block.map((l) => blockKeyOf(l)))).to.deep.equal(new Set([key]));
    const candidates = await store.findBlockCandidates(key);
    expect(candidates).to.have.length(30);
    expect(candidates.map((c) => [c.id, c.features.source, c.features.surface])).to.deep.equal(
      block.map((l) => [l.id, l.content.source, featuresOf(l).surface]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(readCount(candidates)).to.equal(0);

    // Read at first use: a change of the stored row made after the candidates were read shows.
    const seed = candidates.find((c) => c.id === block[9].id)!;
    store.database.prepare('UPDATE dedup_features SET year_built = 1901 WHERE rowid = (SELECT rowid FROM listings WHERE id = ?)').run(seed.id);
    expect(seed.features.yearBuilt).to.equal(1901);
    expect(readCount(candidates)).to.equal(1);

    // Clustering around listing 9 compares it with listing 10 (which it matches: listing 10 is then
    // compared in turn) and with listing 29: the 27 others' stored features are never read.
    const sorted = [...candidates].sort((a, b) => (a.id < b.id ? -1 : 1));
    const { groups } = clusterAround(
      sorted.map((c) => c.features),
      [sorted.indexOf(seed)],
    );
    expect(groups.map((group) => group.map((i) => sorted[i].id).sort())).to.deep.equal([[block[10].id, block[9].id].sort()]);
    expect(
      candidates
        .filter((c) => (c.features as PartlyStoredFeatures).read)
        .map((c) => c.id)
        .sort(),
    ).to.deep.equal([block[9].id, block[10].id, block[29].id].sort());
    // A row whose stored features are gone (never on a consistent store) is read whole instead.
    const unread = candidates.find((c) => c.id === block[20].id)!;
    store.database.prepare('DELETE FROM dedup_features WHERE rowid = (SELECT rowid FROM listings WHERE id = ?)').run(unread.id);
    // Every candidate's features, read now, are those of its listing (the seed's with its changed year).
    const listingOf = (id: string) => block.find((l) => l.id === id)!;
    for (const candidate of candidates) {
      const expected = { ...plain(featuresOf(listingOf(candidate.id))), ...(candidate === seed ? { yearBuilt: 1901 } : {}) };
      expect(plain(candidate.features)).to.deep.equal(expected);
    }
    await store.close();
  });

  it('reads a block from the entries of ix_block, not from the listing rows; reindex brings an older ix_block to that', async () => {
    const listings = makeListings({ count: 60, seed: 12 });
    const { file, store: first } = await storeHolding('feat-ix', listings);
    const planOf = (s: SqliteListingStore) =>
      (s.database.prepare(`EXPLAIN QUERY PLAN ${BLOCK_CANDIDATES_SQL}`).all('x') as { detail: string }[]).map((r) => r.detail);
    expect(planOf(first)).to.include('SEARCH l USING COVERING INDEX ix_block (block_key=?)');
    // A store of older code: the ix_block of the block key only, and no own_surface column.
    first.database.exec('DROP INDEX ix_block; ALTER TABLE listings DROP COLUMN own_surface; CREATE INDEX ix_block ON listings(block_key) WHERE active = 1');
    first.database.pragma('user_version = 0');
    await first.close();
    const store = new SqliteListingStore(file);
    const plan = () => planOf(store);
    const unfilled = () =>
      (store.database.prepare('SELECT count(*) AS n FROM listings WHERE active = 1 AND block_key IS NOT NULL AND own_surface IS NULL').get() as { n: number })
        .n;
    // It answers the same, from the rows, with every candidate's features read at once.
    expect(plan()).to.include('SEARCH l USING INDEX ix_block (block_key=?)');
    expect(unfilled()).to.be.greaterThan(30);
    await expectCandidatesMatch(store, listings);
    const someKey = blocksOf(listings)[0];
    expect((await store.findBlockCandidates(someKey)).every((c) => !(c.features instanceof PartlyStoredFeatures))).to.equal(true);
    store.rebuildIndexes();
    expect(plan()).to.include('SEARCH l USING COVERING INDEX ix_block (block_key=?)');
    expect(unfilled()).to.equal(0);
    expect((await store.findBlockCandidates(someKey)).every((c) => c.features instanceof PartlyStoredFeatures)).to.equal(true);
    await expectCandidatesMatch(store, listings);
    // Regrouping rewrites the columns the entries hold: the candidates follow.
    const regrouped = listings
      .filter((l) => l.status === 'active')
      .slice(0, 10)
      .map((l, i) => ({ ...l, dedup_key: `regrouped-${i % 3}`, change_seq: l.change_seq + 1000 }));
    await store.upsertMany(regrouped);
    await expectCandidatesMatch(
      store,
      listings.map((l) => regrouped.find((r) => r.id === l.id) ?? l),
    );
    await store.close();
  });
});
