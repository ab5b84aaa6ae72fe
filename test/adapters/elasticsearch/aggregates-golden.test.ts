/**
 * Golden request bodies of the aggregate reads (golden-aggregates/*.json): an engine-neutral query
 * and the exact bodies the adapter sends for it (geotile_grid with its sub-aggregations; the stats
 * filters and percentiles, and a page of the withdrawn listings' values). No switch rewrites them: a
 * difference is read, then either the code or the file is fixed.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import type { ClustersQuery, StatsQuery } from '../../../src/core/query/aggregates.js';
import { buildClustersBody } from '../../../src/adapters/elasticsearch/clusters-body.js';
import { buildStatsBody, buildWithdrawnValuesBody } from '../../../src/adapters/elasticsearch/stats-body.js';

type Golden =
  | { kind: 'clusters'; description: string; query: ClustersQuery; body: unknown }
  | { kind: 'stats'; description: string; query: StatsQuery; body: unknown; withdrawnPage: unknown };

const DIR = new URL('./golden-aggregates/', import.meta.url);
const goldens = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => ({ file, ...(JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) as Golden) }));
/** Through JSON, as the client sends it. */
const wire = (body: unknown) => JSON.parse(JSON.stringify(body));

describe('Elasticsearch aggregate bodies (golden files)', () => {
  it('covers clusters and stats, every kind of area', () => {
    expect(goldens.filter((g) => g.kind === 'clusters').length).to.be.at.least(2);
    const areas = goldens.flatMap((g) => (g.kind === 'stats' ? [g.query.area.kind] : []));
    expect([...new Set(areas)].sort()).to.deep.equal(['bbox', 'commune', 'department', 'postalCode']);
  });

  for (const golden of goldens) {
    it(`${golden.file}: ${golden.description}`, () => {
      if (golden.kind === 'clusters') {
        expect(wire(buildClustersBody(golden.query))).to.deep.equal(golden.body);
        return;
      }
      expect(wire(buildStatsBody(golden.query))).to.deep.equal(golden.body);
      expect(wire(buildWithdrawnValuesBody(golden.query, 'pap:ref-00042'))).to.deep.equal(golden.withdrawnPage);
    });
  }
});
