/**
 * A capped map spread over its cells: their totals beside the map's own request, then each cell's
 * share as one `top_hits` of its quota, read back as the map points' texts.
 */
import { expect } from 'chai';
import { buildCellPointsBody, cellCountsAggs, cellPointsOf, cellTotalsOf } from '../../../src/adapters/elasticsearch/map-cells-body.js';
import { PUBLIC_JSON_VERSION } from '../../../src/core/model/present.js';

const cells = [
  { south: 40, west: 170, north: 45.0005, east: 180.0005 - 360 },
  { south: 45.0005, west: 179.9995, north: 50, east: -170 },
  { south: 45.0005, west: 170, north: 50, east: 179.9995 },
];
const query = {
  filter: { transaction: 'vente' as const },
  scope: { enteredFrom: 0, eligibleSites: null },
  grouped: true,
  bbox: { south: 40, west: 170, north: 50, east: -170 },
  limit: 2000,
};
const box = (top: number, left: number, bottom: number, right: number) => ({
  geo_bounding_box: { location: { top_left: { lat: top, lon: left }, bottom_right: { lat: bottom, lon: right } } },
});

describe('Elasticsearch map cells', () => {
  it('counts each cell as the map reads a box: its lowered south and west edges, across the antimeridian', () => {
    expect(JSON.parse(JSON.stringify(cellCountsAggs(cells.slice(0, 2))))).to.deep.equal({
      cells: { filters: { filters: [box(45.0005, 169.9999999, 39.9999999, -179.9995), box(50, 179.9994999, 45.0004999, -170)] } },
    });
  });

  it('reads the totals in the order of the cells', () => {
    expect(cellTotalsOf({ cells: { buckets: [{ doc_count: 3 }, { doc_count: 0 }, { doc_count: 12 }] } })).to.deep.equal([3, 0, 12]);
  });

  it("reads each cell's quota of points in index order, from doc values, and nothing of a cell without one", () => {
    const body = JSON.parse(JSON.stringify(buildCellPointsBody(query, cells, [5, 0, 12])));
    expect(body.query.bool.filter).to.deep.include(box(50, 169.9999999, 39.9999999, -170));
    expect(body).to.include({ size: 0, track_total_hits: false });
    expect(Object.keys(body.aggs)).to.deep.equal(['c0', 'c2']);
    expect(body.aggs.c0).to.deep.equal({
      filter: box(45.0005, 169.9999999, 39.9999999, -179.9995),
      aggs: { points: { top_hits: { size: 5, sort: ['_doc'], _source: false, docvalue_fields: ['map_bin', 'json_v', 'map_json'] } } },
    });
    expect(body.aggs.c2.aggs.points.top_hits.size).to.equal(12);
  });

  it('gives the texts cell by cell, or null when a point has no current text', () => {
    const hit = (text: string, version = PUBLIC_JSON_VERSION) => ({ fields: { json_v: [version], map_json: [Buffer.from(text).toString('base64')] } });
    const aggregations = { c0: { points: { hits: { hits: [hit('{"a":1}'), hit('{"a":2}')] } } }, c2: { points: { hits: { hits: [hit('{"b":1}')] } } } };
    expect(cellPointsOf(aggregations, [2, 0, 1])?.map((texts) => texts.map(String))).to.deep.equal([['{"a":1}', '{"a":2}'], ['{"b":1}']]);
    const older = { ...aggregations, c2: { points: { hits: { hits: [hit('{"b":1}', PUBLIC_JSON_VERSION - 1)] } } } };
    expect(cellPointsOf(older, [2, 0, 1])).to.equal(null);
  });
});
