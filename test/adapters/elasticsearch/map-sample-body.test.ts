/**
 * A capped map from doc values: the cells counted by ranges on the plain coordinates (across the
 * antimeridian too), each cell's key threshold set for its quota, its quota taken from the front.
 */
import { expect } from 'chai';
import {
  boxThreshold,
  cellCountsOf,
  cellShares,
  firstThresholds,
  KEY_SPAN,
  sampleCountsBody,
  samplePointsBody,
  widened,
} from '../../../src/adapters/elasticsearch/map-sample-body.js';
import { mapPointBytesOf } from '../../../src/adapters/elasticsearch/map-point-bytes.js';
import { ANY_FORM_MAP_POINT_DOC_VALUES, MAP_POINT_DOC_VALUES, mapKeyOf } from '../../../src/adapters/elasticsearch/read-model.js';
import { PUBLIC_JSON_VERSION } from '../../../src/core/model/present.js';
import { samplingEdges } from '../../../src/core/query/map-sampling.js';
import type { MapQuery } from '../../../src/core/query/query.js';

const query = (bbox: MapQuery['bbox']): MapQuery => ({ filter: {}, scope: { enteredFrom: 0, eligibleSites: null }, grouped: true, bbox, limit: 2000 });

describe('Elasticsearch map sampling from doc values', () => {
  it("counts rows then columns by the core's inner edges, the outer ranges open", () => {
    const bbox = { south: 45, west: 4, north: 46, east: 5 };
    const body = JSON.parse(JSON.stringify(sampleCountsBody(query(bbox))));
    const edges = samplingEdges(bbox)!;
    const rows = body.aggs.rows.range.ranges;
    expect(rows).to.have.length(10);
    expect(rows[0]).to.deep.equal({ key: '0', to: edges.rows[1] });
    expect(rows[9]).to.deep.equal({ key: '9', from: edges.rows[9] });
    expect(body.aggs.rows.aggs.columns.range.ranges[4]).to.deep.equal({ key: '4', from: edges.columns[4], to: edges.columns[5] });
    expect(body.aggs.rows.aggs.columns).to.not.have.property('aggs');
    expect(body).to.include({ size: 0, track_total_hits: true });
  });

  it('across the antimeridian: each column two ranges of stored longitudes, 360 degrees apart, counted as one cell', () => {
    const bbox = { south: -30, west: 170, north: -10, east: -170 };
    const body = JSON.parse(JSON.stringify(sampleCountsBody(query(bbox))));
    const columns = body.aggs.rows.aggs.columns.range.ranges;
    expect(columns).to.have.length(20);
    expect(columns.slice(0, 2)).to.deep.equal([
      { key: '0', from: 0, to: 172.0005 },
      { key: '0', from: -360, to: 172.0005 - 360 },
    ]);
    expect(columns.slice(-2)).to.deep.equal([
      { key: '9', from: 188.0005, to: 360 },
      { key: '9', from: 188.0005 - 360, to: 0 },
    ]);
    const counts = cellCountsOf({
      rows: {
        buckets: [
          {
            key: '0',
            columns: {
              buckets: [
                { key: '9', doc_count: 2 },
                { key: '9', doc_count: 5 },
              ],
            },
          },
        ],
      },
    });
    expect(counts).to.have.length(100);
    expect(counts[9]).to.equal(7);
    expect(counts.reduce((sum, n) => sum + n, 0)).to.equal(7);
  });

  it('sets each threshold for the quota and two standard deviations more, every key when that is most of the cell, nothing without a quota', () => {
    expect(firstThresholds([10_000, 30, 4], [16, 20, 0])).to.deep.equal([Math.ceil((KEY_SPAN * (16 + 2 * 4 + 2)) / 10_000), KEY_SPAN, -1]);
    expect(widened(1000)).to.equal(4000);
    expect(widened(KEY_SPAN / 2)).to.equal(KEY_SPAN);
  });

  it("sets the box's first threshold at the highest cell threshold within 1.5 times the limit, none when even the lowest is over", () => {
    // Two dense cells and a sparse one: the dense cells' threshold fits, the sparse one's would read them all.
    const totals = [3000, 3000, 40];
    const thresholds = firstThresholds(totals, [200, 200, 3]);
    expect(boxThreshold(totals, thresholds, 403, 10_000)).to.equal(thresholds[0]);
    expect(thresholds[2]).to.be.greaterThan(thresholds[0]);
    // Half of the read cap bounds the budget too.
    expect(boxThreshold(totals, thresholds, 403, 800)).to.equal(0);
    expect(boxThreshold([3000], firstThresholds([3000], [3]), 3, 10_000)).to.equal(0);
  });

  it("the listings' keys are spread evenly, so a cell falls short of its quota below its first threshold rarely", () => {
    // Ids as the indexer makes them: a site and its reference, often consecutive numbers.
    const keys = Array.from({ length: 200_000 }, (_, i) => mapKeyOf(`site${i % 7}:${1_000_000 + i}`));
    // 100 cells of 2 000 listings, each with a quota of 20: its first threshold keeps 20 or more.
    const [threshold] = firstThresholds([2000], [20]);
    let short = 0;
    for (let cell = 0; cell < 100; cell++) {
      const below = keys.slice(cell * 2000, (cell + 1) * 2000).filter((key) => key < threshold).length;
      if (below < 20) short++;
    }
    expect(short).to.be.at.most(10);
    // And over the whole key span, sixteen slices hold a sixteenth each within 3 %.
    const slices = new Array(16).fill(0);
    for (const key of keys) slices[Math.floor((key * 16) / KEY_SPAN)]++;
    for (const n of slices) expect(Math.abs(n - keys.length / 16)).to.be.below(keys.length / 16 / 33);
  });

  it('reads one clause per cell with a quota, by key, and takes each quota from the front of its cell', () => {
    const bbox = { south: 45, west: 4, north: 46, east: 5 };
    const thresholds = new Array(100).fill(-1);
    thresholds[0] = 500;
    thresholds[11] = KEY_SPAN;
    const body = JSON.parse(JSON.stringify(samplePointsBody(query(bbox), thresholds, 9, MAP_POINT_DOC_VALUES)));
    expect(body).to.include({ size: 9, track_total_hits: false, _source: false, stored_fields: '_none_' });
    expect(body.docvalue_fields).to.deep.equal(['map_bin']);
    expect(samplePointsBody(query(bbox), thresholds, 9, ANY_FORM_MAP_POINT_DOC_VALUES).docvalue_fields).to.deep.equal(ANY_FORM_MAP_POINT_DOC_VALUES);
    expect(body.sort).to.deep.equal([{ map_key: 'asc' }]);
    const shares = body.query.bool.filter.at(-1).bool.should;
    expect(shares).to.have.length(2);
    expect(shares[0].bool.filter[1]).to.deep.equal({ range: { map_key: { lt: 500 } } });
    expect(shares[1].bool.filter).to.have.length(1);

    // The current form (mapping 8: one doc value) and the older one (text, version, coordinates) alike.
    const currentHit = (text: string, lat: number, lon: number) => ({
      fields: { map_bin: [mapPointBytesOf(PUBLIC_JSON_VERSION, lat, lon, text).toString('base64')] },
    });
    const olderHit = (text: string, lat: number, lon: number) => ({
      fields: { json_v: [PUBLIC_JSON_VERSION], map_json: [Buffer.from(text).toString('base64')], lat: [lat], lon: [lon] },
    });
    const quotas = new Array(100).fill(0);
    quotas[0] = 2;
    quotas[11] = 1;
    for (const hit of [currentHit, olderHit]) {
      const hits = [hit('"a"', 45.01, 4.01), hit('"b"', 45.15, 4.15), hit('"c"', 45.02, 4.02), hit('"d"', 45.03, 4.03)];
      const read = cellShares(bbox, hits, quotas);
      expect([read?.[0], read?.[11]].map((texts) => texts?.map(String))).to.deep.equal([['"a"', '"c"'], ['"b"']]);
      expect(read?.filter((texts) => texts.length > 0)).to.have.length(2);
      // A cell short of its quota: its share as read, for the caller to read it again.
      expect(cellShares(bbox, hits.slice(0, 2), quotas)?.[0].map(String)).to.deep.equal(['"a"']);
      // A point without its text (an older document, or the current form asked of an older index),
      // even in a cell whose quota is full: the caller reads the cells another way.
      expect(cellShares(bbox, [{ fields: { lat: [45.01], lon: [4.01] } }], quotas)).to.equal(null);
      expect(cellShares(bbox, [...hits, {}], quotas)).to.equal(null);
    }
    // Bytes of another presenter version are not read.
    expect(cellShares(bbox, [{ fields: { map_bin: [mapPointBytesOf(PUBLIC_JSON_VERSION + 1, 45.01, 4.01, '"a"').toString('base64')] } }], quotas)).to.equal(
      null,
    );
  });
});
