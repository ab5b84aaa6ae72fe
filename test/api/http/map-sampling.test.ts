/**
 * GET /annonces/map when the box holds more than 2 000 listings (docs/api.md "Map sampling"): the
 * answer says it was sampled, and each cell of the 10 x 10 grid over the box holds a share of the
 * points within 1/2 000 of its share of the listings; a box under the cap says `sampling: null`.
 */
import { expect } from 'chai';
import { appServing } from '../../support/app.js';
import { describeEngines } from '../../support/engines.js';
import { makeListings } from '../../support/fixtures.js';
import { inBox, visibleInSearch } from '../../support/oracle.js';
import { samplingCells } from '../../../src/core/query/map-sampling.js';

describeEngines('GET /annonces/map sampling', function (engine) {
  this.timeout(120_000);
  const listings = makeListings({ count: 4400, seed: 29 });
  const serving = appServing(engine, listings);

  it('a capped France box: 2 000 points spread over the 10 x 10 grid as the listings are', async () => {
    const bbox = { south: 41, west: -5.5, north: 51.5, east: 10 };
    const { status, body } = await serving.app().get('/annonces/map?bbox=41,-5.5,51.5,10', serving.key());
    expect(status).to.equal(200);
    const inQuery = listings.filter((l) => visibleInSearch(l, { enteredFrom: 0, eligibleSites: null }, true) && inBox(l, bbox));
    expect(body.total).to.equal(inQuery.length).and.to.be.greaterThan(2000);
    expect([body.capped, body.sampling, body.items.length]).to.deep.equal([true, { grid: 10 }, 2000]);
    const cells = samplingCells(bbox)!;
    for (const cell of cells) {
      const listed = inQuery.filter((l) => inBox(l, cell)).length;
      const shown = body.items.filter((p: { latitude: number; longitude: number }) => inBox({ content: p } as never, cell)).length;
      expect(Math.abs(shown / 2000 - listed / inQuery.length), JSON.stringify(cell)).to.be.below(1 / 2000 + 1e-12);
    }
  });

  it('a box under the cap is not sampled', async () => {
    const { body } = await serving.app().get('/annonces/map?bbox=45,4,46,5', serving.key());
    expect([body.capped, body.sampling]).to.deep.equal([false, null]);
  });
});
