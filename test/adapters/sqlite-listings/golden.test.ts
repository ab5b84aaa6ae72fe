/**
 * Golden statements of the SQLite reads: each file of golden/ holds a query, the plan the store
 * chose, and the exact SQL and parameters the builders must return for them (goldens.ts; the
 * statements were checked to give the pages of the conformance suite, test/conformance). A change
 * of a builder's output fails here until the file is updated (UPDATE_GOLDENS=1, then read the diff).
 *
 * The second block checks the table covers every filter, sort, mode, plan and flow.
 */
import { expect } from 'chai';
import { SORTS } from '../../../src/core/query/query.js';
import { buildExpected, loadGoldens, updateGolden, type Golden } from './goldens.js';
import { LISTING_FILTER_KEYS } from '../../support/filter-keys.js';

const goldens = loadGoldens();
const updating = process.env.UPDATE_GOLDENS === '1';

describe('SQLite statements (golden files)', () => {
  for (const golden of goldens) {
    it(`${golden.file}: ${golden.description}`, () => {
      if (updating) updateGolden(golden);
      else expect(JSON.parse(JSON.stringify(buildExpected(golden)))).to.deep.equal(golden.expected);
    });
  }
});

describe('the SQLite golden table covers the query space and the plans', () => {
  const of = <K extends Golden['kind']>(kind: K) => goldens.filter((g): g is Golden & { kind: K } => g.kind === kind);
  const searches = of('search');
  const maps = of('map');

  it('uses every filter of ListingFilter', () => {
    const used = new Set(goldens.flatMap((g) => (g.kind === 'search' || g.kind === 'map' || g.kind === 'feed' ? Object.keys(g.query.filter) : [])));
    expect(LISTING_FILTER_KEYS.filter((key) => !used.has(key))).to.deep.equal([]);
  });

  it('uses every sort, in page mode and after a position, with the texts current and stale', () => {
    for (const sort of SORTS) {
      expect(
        searches.some((g) => g.query.sort === sort && g.query.after !== null),
        sort,
      ).to.equal(true);
    }
    expect(searches.some((g) => g.query.after === null && g.query.page > 1)).to.equal(true);
    expect(new Set(searches.map((g) => g.plan.presented))).to.deep.equal(new Set([true, false]));
  });

  it("covers every full-text plan: text first (alone, with the department's set, from the intersection) and index first (set, FTS5)", () => {
    const plans = new Set(
      searches.map((g) => {
        const text = g.plan.text;
        if (text === null) return 'none';
        if (text.plan === 'index-first') return `index-first/${text.check}`;
        return `text-first/${text.intersection !== null ? 'intersection' : text.departmentSet !== null ? 'department' : 'alone'}`;
      }),
    );
    expect([...plans].sort()).to.deep.equal([
      'index-first/fts',
      'index-first/set',
      'none',
      'text-first/alone',
      'text-first/department',
      'text-first/intersection',
    ]);
  });

  it('covers the map: antimeridian, the R*Tree plans, each points read, counts in memory and missing indexes', () => {
    expect(maps.some((g) => g.query.bbox.west > g.query.bbox.east)).to.equal(true);
    expect(maps.some((g) => g.query.bbox.west > g.query.bbox.east && !g.plan.presented)).to.equal(true);
    expect(maps.some((g) => !g.query.grouped || g.query.scope.eligibleSites !== null)).to.equal(true);
    expect(maps.some((g) => g.plan.countInMemory)).to.equal(true);
    expect(maps.some((g) => g.plan.presented && !g.plan.joinTexts)).to.equal(true);
    expect(maps.some((g) => g.plan.countIndex === null)).to.equal(true);
    expect(maps.some((g) => g.plan.pointsIndex === 'ix_map')).to.equal(true);
  });

  it('covers the feed and the withdrawn flow (first page, after a position, sites, texts current and stale) and the detail', () => {
    for (const kind of ['feed', 'withdrawn'] as const) {
      const flow = of(kind);
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
      expect(new Set(flow.map((g) => g.plan.presented)), kind).to.deep.equal(new Set([true, false]));
    }
    expect(of('detail')).to.have.length(1);
  });
});
