/**
 * The facets request body, written out whole for a key case: the query keeps the filters no facet
 * asked owns; each facet's `filter` aggregation adds its scope and the other facets' own filters;
 * the source facet counts every site (no site terms, grouped as `vis: 2`).
 */
import { expect } from 'chai';
import { buildFacetsBody } from '../../../src/adapters/elasticsearch/facets-body.js';

describe('Elasticsearch facets body', () => {
  it('type, prix and source of a grouped, site-filtered department search', () => {
    const body = buildFacetsBody({
      filter: { department: '75', types: ['maison'], priceMin: 100_000 },
      scope: { enteredFrom: 1000, eligibleSites: ['pap'] },
      grouped: true,
      facets: ['type', 'prix', 'source'],
    });
    const sitesScope = [{ range: { vis: { gte: 1 } } }, { range: { catalogue_entered_at: { gte: 1000 } } }, { terms: { 'content.source': ['pap'] } }];
    const notAhead = [{ terms: { group_sites_ahead: ['pap'] } }];
    const everySite = [{ term: { vis: 2 } }, { range: { catalogue_entered_at: { gte: 1000 } } }];
    const type = { terms: { type_norm: ['maison'] } };
    const price = { range: { 'content.price': { gte: 100_000 } } };
    expect(JSON.parse(JSON.stringify(body))).to.deep.equal({
      query: { bool: { filter: [{ term: { 'content.department': '75' } }] } },
      size: 0,
      track_total_hits: false,
      aggs: {
        total: { filter: { bool: { filter: [...sitesScope, type, price], must_not: notAhead } } },
        type: {
          filter: { bool: { filter: [...sitesScope, price], must_not: notAhead } },
          aggs: {
            values: { terms: { field: 'type_norm', size: 200, shard_size: 1000 } },
            unknown: { missing: { field: 'type_norm' } },
          },
        },
        prix: {
          filter: { bool: { filter: [...sitesScope, type], must_not: notAhead } },
          aggs: {
            ranges: {
              range: {
                field: 'content.price',
                ranges: [
                  { from: 0, to: 100_000 },
                  { from: 100_000, to: 200_000 },
                  { from: 200_000, to: 300_000 },
                  { from: 300_000, to: 500_000 },
                  { from: 500_000, to: 750_000 },
                  { from: 750_000, to: 1_000_000 },
                  { from: 1_000_000 },
                ],
              },
            },
            unknown: { missing: { field: 'content.price' } },
          },
        },
        source: {
          filter: { bool: { filter: [...everySite, type, price] } },
          aggs: {
            values: { terms: { field: 'content.source', size: 200, shard_size: 1000 } },
            unknown: { missing: { field: 'content.source' } },
          },
        },
      },
    });
  });
});
