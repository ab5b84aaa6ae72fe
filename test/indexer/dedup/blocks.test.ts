/** BlockCache (indexer/dedup/blocks.ts): the cached blocks follow what the stage writes. */
import { expect } from 'chai';
import { blockKeyOf } from '../../../src/core/dedup/block-key.js';
import { BlockCache, candidateOf } from '../../../indexer/dedup/blocks.js';
import type { StoredListing } from '../../../src/core/model/stored.js';
import { stored } from './helpers.js';

const flat = (reference: string, price: number, fields: Partial<StoredListing> = {}) => stored({ reference, price }, fields);
const ids = (cache: BlockCache, key: string) =>
  cache
    .get(key)
    ?.map((member) => member.id)
    .sort();
/** A write of `listing`, which the store held in block `before` (null: in none). */
const write = (listing: StoredListing, before: string | null) => ({ listing, before });

describe('dedup: the block cache', () => {
  const cheap = [flat('c1', 200_000), flat('c2', 201_000), flat('c3', 202_000), flat('c4', 203_000)];
  const dear = [flat('d1', 600_000), flat('d2', 601_000)];
  const cheapKey = blockKeyOf(cheap[0])!;
  const dearKey = blockKeyOf(dear[0])!;

  function filled(): BlockCache {
    const cache = new BlockCache(100);
    cache.put(cheapKey, cheap.map(candidateOf));
    cache.put(dearKey, dear.map(candidateOf));
    return cache;
  }

  it('holds the blocks it was given under their keys', () => {
    expect(cheapKey).to.not.equal(dearKey);
    const cache = filled();
    expect(ids(cache, cheapKey)).to.deep.equal(['seloger:c1', 'seloger:c2', 'seloger:c3', 'seloger:c4']);
    expect(cache.size).to.equal(6);
  });

  it('moves a listing whose price changed bucket, drops one that left the market, finds members wherever they stand', () => {
    const cache = filled();
    // c1 (the first of its array) moves to the dear block; c4 (the last) leaves the market.
    cache.written([write(flat('c1', 600_500), cheapKey), write(flat('c4', 203_000, { status: 'retiree' }), cheapKey)]);
    expect(ids(cache, cheapKey)).to.deep.equal(['seloger:c2', 'seloger:c3']);
    expect(ids(cache, dearKey)).to.deep.equal(['seloger:c1', 'seloger:d1', 'seloger:d2']);
    expect(cache.size).to.equal(5);
    // Members that changed place in their arrays (c4's slot, then c1's) are still found: written
    // again, each is replaced, not added a second time; c3 leaves too, and c2 alone remains.
    cache.written([write(flat('c2', 200_500), cheapKey), write(flat('c3', 202_000, { status: 'retiree' }), cheapKey), write(flat('d2', 601_500), dearKey)]);
    expect(ids(cache, cheapKey)).to.deep.equal(['seloger:c2']);
    expect(ids(cache, dearKey)).to.deep.equal(['seloger:c1', 'seloger:d1', 'seloger:d2']);
    expect(cache.size).to.equal(4);
    expect(cache.get(cheapKey)!.map((member) => member.features.price)).to.deep.equal([200_500]);
  });

  it('adds a new listing to a cached block only, and forgets every member of a dropped block', () => {
    const cache = new BlockCache(5);
    cache.put(cheapKey, cheap.map(candidateOf));
    cache.written([write(flat('n1', 600_000), null)]); // its block is not cached: stays not cached (never partial)
    expect(cache.get(dearKey)).to.equal(undefined);
    cache.written([write(flat('n2', 204_000), null)]);
    expect(cache.size).to.equal(5);
    // Over the capacity: the least recently used block goes, with all it held.
    cache.put(dearKey, dear.map(candidateOf));
    expect(cache.get(cheapKey)).to.equal(undefined);
    expect(cache.size).to.equal(2);
    // A member of the dropped block moving to a cached one joins it (and nothing else changes).
    cache.written([write(flat('c2', 601_000), cheapKey)]);
    expect(ids(cache, dearKey)).to.deep.equal(['seloger:c2', 'seloger:d1', 'seloger:d2']);
  });
});
