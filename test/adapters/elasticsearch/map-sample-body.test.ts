/**
 * A capped map from doc values: the cells counted by ranges on the plain coordinates (across the
 * antimeridian too), each cell's key threshold read off its histogram, its quota taken from the front.
 */
import { expect } from 'chai';
import {
  cellCountsOf,
  cellThresholds,
  KEY_SPAN,
  keyInterval,
  sampleCountsBody,
  sampledShares,
  samplePointsBody,
} from '../../../src/adapters/elasticsearch/map-sample-body.js';
import { PUBLIC_JSON_VERSION } from '../../../src/core/model/present.js';
import { samplingEdges } from '../../../src/core/query/map-sampling.js';
import type { MapQuery } from '../../../src/core/query/query.js';

const query = (bbox: MapQuery['bbox']): MapQuery => ({ filter: {}, scope: { enteredFrom: 0, eligibleSites: null }, grouped: true, bbox, limit: 2000 });

describe('Elasticsearch map sampling from doc values', () => {
  it("counts rows then columns by the core's inner edges, the outer ranges open", () => {
    const bbox = { south: 45, west: 4, north: 46, east: 5 };
    const body = JSON.parse(JSON.stringify(sampleCountsBody(query(bbox), 1000)));
    const edges = samplingEdges(bbox)!;
    const rows = body.aggs.rows.range.ranges;
    expect(rows).to.have.length(10);
    expect(rows[0]).to.deep.equal({ key: '0', to: edges.rows[1] });
    expect(rows[9]).to.deep.equal({ key: '9', from: edges.rows[9] });
    expect(body.aggs.rows.aggs.columns.range.ranges[4]).to.deep.equal({ key: '4', from: edges.columns[4], to: edges.columns[5] });
    expect(body.aggs.rows.aggs.columns.aggs.keys.histogram).to.deep.include({ field: 'map_key', interval: 1000, min_doc_count: 1 });
    expect(body).to.include({ size: 0, track_total_hits: true });
  });

  it('across the antimeridian: each column two ranges of stored longitudes, 360 degrees apart, counted as one cell', () => {
    const bbox = { south: -30, west: 170, north: -10, east: -170 };
    const body = JSON.parse(JSON.stringify(sampleCountsBody(query(bbox), 1000)));
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
                { key: '9', doc_count: 2, keys: { buckets: [{ key: 3000, doc_count: 2 }] } },
                { key: '9', doc_count: 5, keys: { buckets: [{ key: 1000, doc_count: 5 }] } },
              ],
            },
          },
        ],
      },
    });
    expect(counts.totals[9]).to.equal(7);
    expect(counts.keys[9]).to.deep.equal([
      [1000, 5],
      [3000, 2],
    ]);
  });

  it('sets each threshold at the first bucket edge reaching the quota, every key when the buckets do not, nothing without a quota', () => {
    const counts = {
      totals: [10, 50, 4],
      keys: [
        [
          [0, 1],
          [100, 3],
        ],
        [[0, 2]],
        [[200, 4]],
      ] as [number, number][][],
    };
    expect(cellThresholds(counts, [3, 5, 0], 100)).to.deep.equal({ thresholds: [200, KEY_SPAN, -1], read: 4 + 50 });
    expect(keyInterval(4000, 2000)).to.equal(Math.ceil((KEY_SPAN / 2) * (3 / 16)));
    expect(keyInterval(100, 2000)).to.equal(Math.ceil(KEY_SPAN * (3 / 16)));
  });

  it('reads one clause per cell with a quota, by key, and takes each quota from the front of its cell', () => {
    const bbox = { south: 45, west: 4, north: 46, east: 5 };
    const thresholds = new Array(100).fill(-1);
    thresholds[0] = 500;
    thresholds[11] = KEY_SPAN;
    const body = JSON.parse(JSON.stringify(samplePointsBody(query(bbox), thresholds, 9)));
    expect(body).to.include({ size: 9, track_total_hits: false });
    expect(body.sort).to.deep.equal([{ map_key: 'asc' }]);
    const shares = body.query.bool.filter.at(-1).bool.should;
    expect(shares).to.have.length(2);
    expect(shares[0].bool.filter[1]).to.deep.equal({ range: { map_key: { lt: 500 } } });
    expect(shares[1].bool.filter).to.have.length(1);

    const hit = (text: string, lat: number, lon: number) => ({
      fields: { json_v: [PUBLIC_JSON_VERSION], map_json: [Buffer.from(text).toString('base64')], lat: [lat], lon: [lon] },
    });
    const quotas = new Array(100).fill(0);
    quotas[0] = 2;
    quotas[11] = 1;
    const hits = [hit('"a"', 45.01, 4.01), hit('"b"', 45.15, 4.15), hit('"c"', 45.02, 4.02), hit('"d"', 45.03, 4.03)];
    expect(sampledShares(bbox, hits, quotas)?.map((texts) => texts.map(String))).to.deep.equal([['"a"', '"c"'], ['"b"']]);
    // A cell short of its quota: the caller reads the cells another way.
    expect(sampledShares(bbox, hits.slice(0, 2), quotas)).to.equal(null);
  });
});
