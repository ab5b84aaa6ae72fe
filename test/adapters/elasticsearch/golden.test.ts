/**
 * Golden request bodies: each file of test/adapters/elasticsearch/golden/ holds an engine-neutral query and
 * the exact body the adapter must send for it, written by hand and reviewed against the
 * Elasticsearch reference (bool/filter, range, terms, match on search_text, geo_bounding_box,
 * sort with missing, search_after, track_total_hits, _source filtering). There is no "update the
 * goldens" switch on purpose: a difference is read, then either the code or the file is fixed.
 *
 * The second block checks the table itself covers every filter, sort, mode and flow.
 */
import { expect } from 'chai';
import type { FeedQuery, ListingFilter, WithdrawnQuery } from '../../../src/core/query/query.js';
import { SORTS } from '../../../src/core/query/query.js';
import { buildBody, loadGoldens, type Golden } from './goldens.js';
import { LISTING_FILTER_KEYS } from '../../support/filter-keys.js';

const goldens = loadGoldens();

describe('Elasticsearch request bodies (golden files)', () => {
  for (const golden of goldens) {
    it(`${golden.file}: ${golden.description}`, () => {
      // Through JSON, as the client sends it: undefined keys vanish, numbers print as they will on the wire.
      expect(JSON.parse(JSON.stringify(buildBody(golden)))).to.deep.equal(golden.body);
    });
  }
});

describe('the golden table covers the query space', () => {
  const searches = goldens.filter((g): g is Golden & { kind: 'search' } => g.kind === 'search');
  const maps = goldens.filter((g): g is Golden & { kind: 'map' } => g.kind === 'map');
  const filterKeys = (g: Golden): (keyof ListingFilter)[] => (g.kind === 'withdrawn' ? [] : (Object.keys(g.query.filter) as (keyof ListingFilter)[]));

  it('has at least 40 cases', () => {
    expect(goldens.length).to.be.at.least(40);
  });

  it('uses every filter of ListingFilter', () => {
    const used = new Set(goldens.flatMap(filterKeys));
    expect(LISTING_FILTER_KEYS.filter((key) => !used.has(key))).to.deep.equal([]);
  });

  it('uses every sort, in page mode and after a position', () => {
    for (const sort of SORTS) {
      expect(
        searches.some((g) => g.query.sort === sort),
        sort,
      ).to.equal(true);
    }
    expect(searches.some((g) => g.query.after === null && g.query.page > 1)).to.equal(true);
    expect(searches.some((g) => g.query.after !== null)).to.equal(true);
    expect(searches.filter((g) => g.query.after !== null).map((g) => g.query.sort)).to.include.members([
      'recent',
      'price_asc',
      'price_desc',
      'surface_desc',
      'pricem2_asc',
    ]);
  });

  it('covers grouped and ungrouped, with and without eligible sites, and an access period', () => {
    const combos = new Set(searches.map((g) => `${g.query.grouped}/${g.query.scope.eligibleSites === null}`));
    expect([...combos].sort()).to.deep.equal(['false/false', 'false/true', 'true/false', 'true/true']);
    expect(new Set(goldens.map((g) => g.query.scope.enteredFrom)).size).to.be.at.least(2);
  });

  it('covers the map (plain box, antimeridian, grouped with sites), the feed and the withdrawn flow', () => {
    expect(maps.some((g) => g.query.bbox.west > g.query.bbox.east)).to.equal(true);
    expect(maps.some((g) => g.query.bbox.west <= g.query.bbox.east)).to.equal(true);
    expect(maps.some((g) => g.query.grouped && g.query.scope.eligibleSites !== null)).to.equal(true);
    for (const kind of ['feed', 'withdrawn'] as const) {
      const flow = goldens.filter((g) => g.kind === kind) as (Golden & { query: FeedQuery | WithdrawnQuery })[];
      expect(
        flow.some((g) => g.query.after === null),
        kind,
      ).to.equal(true);
      expect(
        flow.some((g) => g.query.after !== null),
        kind,
      ).to.equal(true);
      expect(
        flow.some((g) => g.query.scope.eligibleSites !== null),
        kind,
      ).to.equal(true);
    }
  });
});
