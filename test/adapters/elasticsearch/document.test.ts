/** StoredListing <-> _source: exact round trip, derived keys as SQLite computes them, reads without the series. */
import { expect } from 'chai';
import type { StoredListing } from '../../../src/core/model/stored.js';
import type { PricePoint } from '../../../src/core/model/annonce.js';
import { presentAnnonce, presentMapPoint } from '../../../src/core/model/present.js';
import { expandDigest, fromMapHit, fromSource, MAP_POINT_FIELDS, toSource, type ListingSource } from '../../../src/adapters/elasticsearch/document.js';
import { toRow } from '../../../src/adapters/sqlite-listings/rows/listing-row.js';
import { makeListings } from '../../support/fixtures.js';

/** What Elasticsearch returns for `_source.includes`: only those paths. */
function project(source: ListingSource, paths: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const [head, tail] = path.split('.');
    const value = (source as unknown as Record<string, unknown>)[head];
    if (tail === undefined) {
      if (value !== undefined) out[head] = value;
      continue;
    }
    const inner = (value ?? {}) as Record<string, unknown>;
    if (tail in inner) out[head] = { ...((out[head] as object) ?? {}), [tail]: inner[tail] };
  }
  return out;
}

/** What Elasticsearch returns for `_source.excludes: ["price_points"]`, through JSON. */
function withoutSeries(source: ListingSource): Omit<ListingSource, 'price_points'> {
  const { price_points: _omitted, ...rest } = JSON.parse(JSON.stringify(source)) as ListingSource;
  return rest;
}

const series = (n: number): PricePoint[] =>
  Array.from({ length: n }, (_, i) => ({ at: new Date(Date.UTC(2026, 6, 1 + i)).toISOString(), price: 300_000 - i * 5_000 }));

describe('Elasticsearch document mapping', () => {
  const listings = makeListings({ count: 300, seed: 5 });

  it('round-trips every listing exactly through JSON (what get and mget return)', () => {
    for (const listing of listings) {
      const stored = JSON.parse(JSON.stringify(toSource(listing))) as ListingSource;
      expect(fromSource(stored)).to.deep.equal(listing);
    }
  });

  it('computes vis, the folded keys, the block key and the position exactly like the SQLite rows', () => {
    for (const listing of listings) {
      const source = toSource(listing);
      const row = toRow(listing);
      expect(source.vis, listing.id).to.equal(row.vis);
      expect(source.type_norm).to.equal(row.type_norm);
      expect(source.city_norm).to.equal(row.city_norm);
      expect(source.region_norm).to.equal(row.region_norm);
      expect(source.block_key).to.equal(row.block_key);
      expect(source.location).to.deep.equal(row.lat !== null && row.lon !== null ? { lat: row.lat, lon: row.lon } : null);
    }
    expect(new Set(listings.map((l) => toSource(l).vis))).to.deep.equal(new Set([0, 1, 2]));
  });

  it('has no location when only one coordinate is known', () => {
    const listing = { ...listings[0], content: { ...listings[0].content, longitude: null } };
    expect(toSource(listing).location).to.equal(null);
  });

  for (const length of [0, 1, 2, 3, 7]) {
    it(`a listing read without its series of ${length} readings presents the same price_history`, () => {
      const listing: StoredListing = { ...listings[1], price_points: series(length) };
      const read = fromSource(withoutSeries(toSource(listing)));
      expect(presentAnnonce(read)).to.deep.equal(presentAnnonce(listing));
      expect(read.price_points).to.have.length(length);
    });
  }

  it('expands a digest with its true first and last two readings', () => {
    const points = series(5);
    const expanded = expandDigest({ count: 5, first: points[0], previous: points[3], last: points[4] });
    expect(expanded[0]).to.deep.equal(points[0]);
    expect(expanded.slice(-2)).to.deep.equal(points.slice(-2));
    expect(expandDigest(null)).to.deep.equal([]);
  });

  it('a map point read with MAP_POINT_FIELDS presents exactly like the full listing', () => {
    for (const listing of listings.slice(0, 60)) {
      const thin = fromMapHit(JSON.parse(JSON.stringify(project(toSource(listing), MAP_POINT_FIELDS))));
      expect(presentMapPoint(thin)).to.deep.equal(presentMapPoint(listing));
      expect(thin.id).to.equal(listing.id);
    }
  });

  it('keeps legal_info as stored, an object or a string', () => {
    for (const legal of [{ copropriete: true, lots: 12 }, 'Copropriété de 12 lots', null]) {
      const listing = { ...listings[2], content: { ...listings[2].content, legal_info: legal } };
      expect(fromSource(JSON.parse(JSON.stringify(toSource(listing)))).content.legal_info).to.deep.equal(legal);
    }
  });
});
