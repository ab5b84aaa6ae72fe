/** The benchmark's scenario selection (`npm run bench -- --scenario ...`). */
import { expect } from 'chai';
import { SCENARIOS, selectScenarios } from '../../scripts/bench/scenarios.js';

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
