/** The benchmark's scenario selection (`npm run bench -- --scenario ...`). */
import { expect } from 'chai';
import { SCENARIOS, selectScenarios, type ScenarioContext } from '../../scripts/bench/scenarios.js';
import { SearchParams } from '../../src/api/routes/annonces/schema.js';
import { prng } from '../support/fixtures.js';

describe('bench: --scenario', () => {
  it('takes every scenario without a name, an exact name, a prefix, and a comma list in its order', () => {
    expect(selectScenarios(null)).to.equal(SCENARIOS);
    expect(selectScenarios('ptz').map((s) => s.name)).to.deep.equal(['ptz']);
    expect(selectScenarios('map').map((s) => s.name)).to.deep.equal(['map-paris', 'map-paris-repeat', 'map-france']);
    expect(selectScenarios('feed,ptz').map((s) => s.name)).to.deep.equal(['feed', 'ptz']);
    expect(selectScenarios('ptz,sort-recent').map((s) => s.name)).to.deep.equal(['ptz', 'sort-recent']);
  });

  it('refuses an unknown name, saying which ones exist', () => {
    expect(() => selectScenarios('feed,nope')).to.throw(/unknown scenario "nope"; one of: .*ptz/);
  });
});

describe('bench: the search and map feature scenarios', () => {
  const context = {
    facts: { searchable: 1000, departments: [{ code: '75', listings: 500 }], listings: [], postalCodes: [], wordDocs: {} },
    random: prng(3),
    get: async () => ({ status: 500, body: null }),
    cursorPages: 1,
    log: () => {},
  } as ScenarioContext;

  for (const name of ['facets-dept', 'polygon-paris', 'radius-distance']) {
    it(`${name}: every path is a search the API accepts`, async () => {
      const [scenario] = selectScenarios(name);
      const paths = await scenario.paths(context);
      expect(paths.length).to.be.greaterThan(1);
      for (const path of paths) {
        const query = Object.fromEntries(new URL(path, 'http://bench').searchParams);
        const parsed = SearchParams.safeParse(query);
        expect(parsed.success, `${path.slice(0, 120)}: ${JSON.stringify(parsed.error?.issues)}`).to.equal(true);
      }
    });
  }

  it('search-beside-page-1000: searches measured while the other connections ask for page 1 000', async () => {
    const [scenario] = selectScenarios('search-beside-page-1000');
    const beside = await scenario.beside!(context);
    expect(beside.length).to.be.greaterThan(0);
    for (const path of [...(await scenario.paths(context)), ...beside]) {
      const parsed = SearchParams.safeParse(Object.fromEntries(new URL(path, 'http://bench').searchParams));
      expect(parsed.success, path).to.equal(true);
    }
    expect(beside.every((p) => new URL(p, 'http://bench').searchParams.get('page') === '1000')).to.equal(true);
    // Search-like: on Elasticsearch it is held to the node's own rate as well.
    expect(scenario.searchLike).to.equal(true);
  });
});
