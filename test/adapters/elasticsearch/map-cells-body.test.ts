/** The totals of a capped map's cells as one body: the map's query, one `filters` bucket per cell. */
import { expect } from 'chai';
import { buildMapCellsBody, cellTotalsOf } from '../../../src/adapters/elasticsearch/map-cells-body.js';

describe('Elasticsearch map cells body', () => {
  it('the box and the filters in the query, each cell a box clause with its lowered south and west edges', () => {
    const body = buildMapCellsBody(
      {
        filter: { transaction: 'vente' },
        scope: { enteredFrom: 0, eligibleSites: null },
        grouped: true,
        bbox: { south: 40, west: 170, north: 50, east: -170 },
        limit: 2000,
      },
      [
        { south: 40, west: 170, north: 45.0005, east: 180.0005 - 360 },
        { south: 45.0005, west: 179.9995, north: 50, east: -170 },
      ],
    );
    expect(JSON.parse(JSON.stringify(body))).to.deep.equal({
      query: {
        bool: {
          filter: [
            { term: { vis: 2 } },
            { range: { catalogue_entered_at: { gte: 0 } } },
            { geo_bounding_box: { location: { top_left: { lat: 50, lon: 169.9999999 }, bottom_right: { lat: 39.9999999, lon: -170 } } } },
            { term: { 'content.transaction_type': 'vente' } },
          ],
        },
      },
      size: 0,
      track_total_hits: false,
      aggs: {
        cells: {
          filters: {
            filters: [
              { geo_bounding_box: { location: { top_left: { lat: 45.0005, lon: 169.9999999 }, bottom_right: { lat: 39.9999999, lon: -179.9995 } } } },
              { geo_bounding_box: { location: { top_left: { lat: 50, lon: 179.9994999 }, bottom_right: { lat: 45.0004999, lon: -170 } } } },
            ],
          },
        },
      },
    });
  });

  it('reads the totals in the order of the cells', () => {
    expect(cellTotalsOf({ cells: { buckets: [{ doc_count: 3 }, { doc_count: 0 }, { doc_count: 12 }] } })).to.deep.equal([3, 0, 12]);
  });
});
