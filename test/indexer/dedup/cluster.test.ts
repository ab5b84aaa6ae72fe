/** Union-find with vetoes, and block clustering: chains, same-site refusal, order independence, seeds. */
import { expect } from 'chai';
import fc from 'fast-check';
import { ConstrainedUnionFind } from '../../../indexer/dedup/union-find.js';
import { clusterAround, clusterBlock } from '../../../indexer/dedup/cluster.js';
import { featuresOf, type Features } from '../../../src/core/dedup/features.js';
import { MATCH_THRESHOLD, scorePair, withinLimits } from '../../../indexer/dedup/score.js';
import type { ListingContent } from '../../../src/core/model/stored.js';
import { SPARSE, stored } from './helpers.js';

describe('ConstrainedUnionFind', () => {
  it('joins sets and lists them by their smallest member', () => {
    const uf = new ConstrainedUnionFind(5, () => true);
    expect(uf.union(3, 1)).to.equal(true);
    expect(uf.union(1, 4)).to.equal(true);
    expect(uf.union(4, 3)).to.equal(false);
    expect(uf.groups()).to.deep.equal([[0], [1, 3, 4], [2]]);
  });

  it('refuses a union when any pair across the two sets is vetoed', () => {
    const sites = ['a', 'b', 'a', 'c'];
    const uf = new ConstrainedUnionFind(4, (i, j) => sites[i] !== sites[j]);
    expect(uf.union(0, 1)).to.equal(true);
    expect(uf.union(1, 2)).to.equal(false); // 2 is of site a, like 0
    expect(uf.union(2, 3)).to.equal(true);
    expect(uf.union(3, 0)).to.equal(false); // {0,1} and {2,3} both hold site a
    expect(uf.groups()).to.deep.equal([
      [0, 1],
      [2, 3],
    ]);
  });
});

/** Listings sorted by id, as clusterAround expects, with their features. */
function block(listings: Partial<ListingContent>[]): { ids: string[]; features: Features[] } {
  const all = listings.map((c) => stored(c)).sort((a, b) => (a.id < b.id ? -1 : 1));
  return { ids: all.map((l) => l.id), features: all.map(featuresOf) };
}
const groupsById = (ids: string[], groups: number[][]) => groups.map((g) => g.map((i) => ids[i]));
/** A maker of sparse listings (no text, energy, year, bedrooms, agency or position) with these values. */
const sparseListings =
  (values: Partial<ListingContent>) =>
  (source: string, reference: string, fields: Partial<ListingContent> = {}) => ({ source, reference, ...values, ...SPARSE, ...fields });

describe('dedup block clustering', () => {
  const A = { source: 'seloger', reference: 'A', surface: 65.4, seller_name: 'Agence du Parc', year_built: null };
  const B = { source: 'pap', reference: 'B', surface: 65.4, seller_name: 'Immo Sud', year_built: 1930 };
  // No text, no energy figures: it matches B (same agency, same year) but not A directly.
  const C = {
    source: 'locamoi',
    reference: 'C',
    surface: 64.5,
    description: null,
    seller_name: 'Immo Sud',
    year_built: 1930,
    dpe: null,
    ges: null,
    dpe_value: null,
    ges_value: null,
    bedrooms: null,
  };

  it('joins a chain A~B~C when A and C are compatible, though A and C do not match directly', () => {
    const { ids, features } = block([A, B, C]);
    const f = (ref: string) => features[ids.findIndex((id) => id.endsWith(`:${ref}`))];
    expect(scorePair(f('A'), f('B'))).to.be.at.least(MATCH_THRESHOLD);
    expect(scorePair(f('B'), f('C'))).to.be.at.least(MATCH_THRESHOLD);
    expect(scorePair(f('A'), f('C'))).to.be.below(MATCH_THRESHOLD);
    expect(withinLimits(f('A'), f('C'))).to.equal(true);
    expect(groupsById(ids, clusterBlock(features))).to.deep.equal([['locamoi:C', 'pap:B', 'seloger:A']]);
  });

  it('does not let a chain join two listings that cannot be one property (price drifting along the chain)', () => {
    // A 300 000, B 320 000 (A~B), C 336 000 (B~C), but A and C are 10.7 % apart.
    const { ids, features } = block([
      { ...A, price: 300_000 },
      { ...B, price: 320_000 },
      { ...C, price: 336_000 },
    ]);
    const f = (ref: string) => features[ids.findIndex((id) => id.endsWith(`:${ref}`))];
    expect(scorePair(f('B'), f('C'))).to.be.at.least(MATCH_THRESHOLD);
    expect(withinLimits(f('A'), f('C'))).to.equal(false);
    expect(groupsById(ids, clusterBlock(features))).to.deep.equal([['locamoi:C'], ['pap:B', 'seloger:A']]);
  });

  it('never puts two listings of one site together: the better match wins, the other stays alone', () => {
    // S1 and S2 are both on seloger and both match P; S1 matches better (same text and energy figures).
    const { ids, features } = block([
      { source: 'seloger', reference: 'S1' },
      { source: 'seloger', reference: 'S2', description: null, dpe_value: null, ges_value: null },
      { source: 'pap', reference: 'P' },
    ]);
    expect(groupsById(ids, clusterBlock(features))).to.deep.equal([['pap:P', 'seloger:S1'], ['seloger:S2']]);
  });

  describe('matches on a few common values (a price, a surface, the rooms)', () => {
    // Sparse rentals: no text, energy figures, year, bedrooms or agency; the usual rent of a studio.
    const studio = (source: string, reference: string, fields: Partial<ListingContent> = {}) => ({
      source,
      reference,
      transaction_type: 'location' as const,
      price: 570,
      surface: 19,
      rooms: 1,
      ...SPARSE,
      ...fields,
    });

    it('join an unambiguous pair', () => {
      const { ids, features } = block([studio('seloger', 'S', { surface: 19.4 }), studio('leboncoin', 'L')]);
      expect(groupsById(ids, clusterBlock(features))).to.deep.equal([['leboncoin:L', 'seloger:S']]);
    });

    it('join nothing when one listing fits two listings of another site equally', () => {
      const { ids, features } = block([studio('seloger', 'S'), studio('leboncoin', 'L1'), studio('leboncoin', 'L2', { surface: 19.3 })]);
      expect(groupsById(ids, clusterBlock(features))).to.deep.equal([['leboncoin:L1'], ['leboncoin:L2'], ['seloger:S']]);
    });

    it('do not chain two studios whose own values disagree (one bedroom against none) through a third that says neither', () => {
      const { ids, features } = block([studio('seloger', 'S', { bedrooms: 1 }), studio('leboncoin', 'L'), studio('pap', 'P', { bedrooms: 0 })]);
      const f = (ref: string) => features[ids.findIndex((id) => id.endsWith(`:${ref}`))];
      expect(scorePair(f('S'), f('L'))).to.equal(MATCH_THRESHOLD);
      expect(scorePair(f('L'), f('P'))).to.equal(MATCH_THRESHOLD);
      expect(withinLimits(f('S'), f('P'))).to.equal(true);
      expect(scorePair(f('S'), f('P'))).to.be.below(MATCH_THRESHOLD - 0.5);
      // Equal scores join in id order: L with P first; S, whose own values disagree with P's, stays alone.
      expect(groupsById(ids, clusterBlock(features))).to.deep.equal([['leboncoin:L', 'pap:P'], ['seloger:S']]);
    });
  });

  describe('weak matches joining a group', () => {
    const flat = sparseListings({ price: 198_000, surface: 46, rooms: 2 });
    const agency = (seller_name: string) => ({ seller_type: 'Pro' as const, seller_name });

    it('refuse a listing that matches one member but not another (complete linkage: a price 1.5 % off is close, not the same)', () => {
      // A and B: one agency's copies (a strong match). X matches A exactly, and B only nearly (B's price 1.5 % off).
      const { ids, features } = block([
        flat('seloger', 'A', agency('Agence République')),
        flat('bienici', 'B', { price: 201_000, ...agency('Agence République') }),
        flat('leboncoin', 'X'),
      ]);
      const f = (ref: string) => features[ids.findIndex((id) => id.endsWith(`:${ref}`))];
      expect(scorePair(f('A'), f('X'))).to.equal(MATCH_THRESHOLD);
      expect(scorePair(f('B'), f('X'))).to.equal(MATCH_THRESHOLD - 0.5);
      expect(groupsById(ids, clusterBlock(features))).to.deep.equal([['bienici:B', 'seloger:A'], ['leboncoin:X']]);
    });

    it('take a copy whose other candidate on a site is already held by a strong match with its own site', () => {
      // Two flats at one price, surface and rooms. Moriss's copies on seloger (M1) and logic-immo (M2)
      // match strongly (one brand, two offices); P on logic-immo and O on seloger match both seloger
      // listings weakly, but M1 is held by M2 for logic-immo: P's only candidate left is O.
      const { ids, features } = block([
        flat('seloger', 'M1', { price: 650_000, surface: 67, rooms: 3, ...agency('Moriss Immobilier') }),
        flat('logic-immo', 'M2', { price: 650_000, surface: 67, rooms: 3, ...agency('Moriss Voltaire') }),
        flat('logic-immo', 'P', { price: 650_000, surface: 67, rooms: 3, ...agency('Perspectives') }),
        flat('seloger', 'O', { price: 650_000, surface: 67, rooms: 3, ...agency('Ouail Immobilier') }),
      ]);
      expect(groupsById(ids, clusterBlock(features))).to.deep.equal([
        ['logic-immo:M2', 'seloger:M1'],
        ['logic-immo:P', 'seloger:O'],
      ]);
    });
  });

  describe('a group with a sparse member (a price and little else)', () => {
    const sparse = sparseListings({ price: 1_350_000, surface: 130.9, rooms: 5 });
    const agency = { seller_type: 'Pro' as const, seller_name: 'Foncia Transaction' };

    it('takes a copy that matches the others exactly though the sparse member has only its price to compare', () => {
      // S~B on the price and the agency, S~L on price, surface and rooms; B carries no surface or rooms,
      // so L and B share only the price: the same.
      const { ids, features } = block([
        sparse('seloger', 'S', agency),
        sparse('bellesdemeures', 'B', { surface: null, rooms: null, ...agency }),
        sparse('leboncoin', 'L', { surface: 131 }),
      ]);
      const f = (ref: string) => features[ids.findIndex((id) => id.endsWith(`:${ref}`))];
      expect(scorePair(f('L'), f('B'))).to.be.below(MATCH_THRESHOLD - 0.5);
      expect(groupsById(ids, clusterBlock(features))).to.deep.equal([['bellesdemeures:B', 'leboncoin:L', 'seloger:S']]);
    });

    it('still refuses a copy on which the sparse member disagrees (a price 4 % apart)', () => {
      const { ids, features } = block([
        sparse('seloger', 'S', agency),
        sparse('bellesdemeures', 'B', { surface: null, rooms: null, price: 1_404_000, ...agency }),
        sparse('leboncoin', 'L', { surface: 131, price: 1_404_000 }),
        sparse('pap', 'P', { surface: 131 }),
      ]);
      const groups = groupsById(ids, clusterBlock(features));
      expect(groups.find((group) => group.includes('bellesdemeures:B'))).to.not.include('pap:P');
    });

    it("takes the exact copy and refuses the agency's twin flat (the same price, another surface), which the sparse member cannot tell apart", () => {
      const { ids, features } = block([
        sparse('seloger', 'S', agency),
        sparse('bellesdemeures', 'B', { surface: null, rooms: null, ...agency }),
        sparse('leboncoin', 'L', { surface: 131 }),
        sparse('superimmo', 'T', { surface: 134.5, ...agency }),
      ]);
      const f = (ref: string) => features[ids.findIndex((id) => id.endsWith(`:${ref}`))];
      // The twin matches the sparse member as well as the full one does (the price and the agency)...
      expect(scorePair(f('T'), f('B'))).to.equal(scorePair(f('S'), f('B')));
      // ...and disagrees with the full members on the surface.
      expect(scorePair(f('T'), f('S'))).to.be.below(MATCH_THRESHOLD - 0.5);
      expect(groupsById(ids, clusterBlock(features))).to.deep.equal([['bellesdemeures:B', 'leboncoin:L', 'seloger:S'], ['superimmo:T']]);
    });

    it('joins the closer of two equal matches first: 51.78 m² is 52 on one site before it is 51 on another', () => {
      const rent = (source: string, reference: string, surface: number) => ({ source, reference, price: 600, surface, rooms: 2, ...SPARSE });
      const { ids, features } = block([rent('leboncoin', 'L', 51), rent('locamoi', 'M', 52), rent('paruvendu', 'P', 51.78)]);
      const f = (ref: string) => features[ids.findIndex((id) => id.endsWith(`:${ref}`))];
      expect(scorePair(f('L'), f('P'))).to.equal(scorePair(f('M'), f('P')));
      // Whole metres a metre apart score nothing: 51 and 52 are two flats, and only one joins 51.78.
      expect(scorePair(f('L'), f('M'))).to.be.below(MATCH_THRESHOLD - 0.5);
      expect(groupsById(ids, clusterBlock(features))).to.deep.equal([['leboncoin:L'], ['locamoi:M', 'paruvendu:P']]);
    });

    it('never takes a second listing of a site already in the group', () => {
      const { ids, features } = block([
        sparse('seloger', 'S', agency),
        sparse('bellesdemeures', 'B', { surface: null, rooms: null, ...agency }),
        sparse('leboncoin', 'L', { surface: 131 }),
        sparse('leboncoin', 'L2', { surface: 131, price: 1_351_000 }),
      ]);
      const groups = groupsById(ids, clusterBlock(features));
      expect(groups.every((group) => new Set(group.map((id) => id.split(':')[0])).size === group.length)).to.equal(true);
      expect(groups.some((group) => group.includes('bellesdemeures:B') && group.includes('seloger:S'))).to.equal(true);
    });
  });

  it('gives the same groups whatever order the listings come in', () => {
    const listings = [
      A,
      B,
      C,
      { source: 'seloger', reference: 'S2', description: null, dpe_value: null, ges_value: null },
      { source: 'bienici', reference: 'N', surface: 65.4, price: 400_000, description: 'Autre appartement, 5e étage.', dpe: 'F' as const },
      { source: 'notaires', reference: 'M', surface: 80, rooms: 4 },
      { source: 'leboncoin', reference: 'M', surface: 80, rooms: 4 },
    ];
    const { ids, features } = block(listings);
    const expected = groupsById(ids, clusterBlock(features));
    fc.assert(
      fc.property(fc.shuffledSubarray(listings, { minLength: listings.length }), (shuffled) => {
        const again = block(shuffled);
        expect(groupsById(again.ids, clusterBlock(again.features))).to.deep.equal(expected);
      }),
      { numRuns: 50 },
    );
  });

  it('regroups only the parts reachable from the seeds, with the groups a whole-block clustering gives', () => {
    const { ids, features } = block([
      A,
      B,
      C,
      { source: 'notaires', reference: 'M', surface: 80, rooms: 4 },
      { source: 'leboncoin', reference: 'M', surface: 80, rooms: 4 },
    ]);
    const whole = groupsById(ids, clusterBlock(features));
    const fromC = groupsById(ids, clusterAround(features, [ids.indexOf('locamoi:C')]).groups);
    expect(fromC).to.deep.equal([['locamoi:C', 'pap:B', 'seloger:A']]);
    expect(whole).to.deep.include.members(fromC);
    expect(whole).to.deep.include(['leboncoin:M', 'notaires:M']);
  });
});
