/**
 * GET /annonces/map/clusters: each cell's `bounds` (the box of its listings), a lone listing's map
 * point, and `precision` (cells of zoom + precision, within the tile limit), over HTTP on both engines.
 */
import { expect } from 'chai';
import { appServing } from '../../support/app.js';
import { describeEngines } from '../../support/engines.js';
import { makeListings } from '../../support/fixtures.js';
import { inBox, visibleInSearch } from '../../support/oracle.js';

interface Cell {
  zoom: number;
  count: number;
  id: string | null;
  bounds: { south: number; west: number; north: number; east: number };
  point: { source: string; reference: string } | null;
}

describeEngines('GET /annonces/map/clusters bounds, points and precision', function (engine) {
  const listings = makeListings({ count: 300, seed: 21 });
  const serving = appServing(engine, listings);
  const FRANCE = 'bbox=41,-5.5,51.5,10';

  it("bounds are the box of each cell's listings; a lone listing's point is its map point", async () => {
    const PARIS = 'bbox=48.84,2.25,48.89,2.33';
    const { status, body } = await serving.app().get(`/annonces/map/clusters?${PARIS}&zoom=16&dedup=0`, serving.key());
    expect(status, JSON.stringify(body)).to.equal(200);
    const visible = listings.filter((l) => visibleInSearch(l, { enteredFrom: 0, eligibleSites: null }, false));
    const map = await serving.app().get(`/annonces/map?${PARIS}&dedup=0`, serving.key());
    const mapPoints = new Map(map.body.items.map((p: { source: string; reference: string }) => [`${p.source}:${p.reference}`, p]));
    const lone = (body.cells as Cell[]).filter((cell) => cell.count === 1);
    expect(lone.length).to.be.greaterThan(0);
    expect(lone.length, 'cells of several listings too').to.be.below(body.cells.length);
    for (const cell of body.cells as Cell[]) {
      const inCell = visible.filter((l) => inBox(l, cell.bounds));
      const lats = inCell.map((l) => l.content.latitude!);
      const lons = inCell.map((l) => l.content.longitude!);
      expect(inCell.length, 'the bounds hold at least the cell').to.be.at.least(cell.count);
      expect([Math.min(...lats), Math.max(...lats)]).to.deep.equal([cell.bounds.south, cell.bounds.north]);
      expect([Math.min(...lons), Math.max(...lons)]).to.deep.equal([cell.bounds.west, cell.bounds.east]);
      if (cell.count === 1) {
        expect(cell.point).to.deep.equal(mapPoints.get(cell.id!));
        expect([cell.bounds.south, cell.bounds.west]).to.deep.equal([cell.bounds.north, cell.bounds.east]);
      } else expect(cell.point).to.equal(null);
    }
  });

  it('precision refines the cells: tiles of zoom + precision, the same total', async () => {
    const coarse = await serving.app().get(`/annonces/map/clusters?${FRANCE}&zoom=4`, serving.key());
    const fine = await serving.app().get(`/annonces/map/clusters?${FRANCE}&zoom=4&precision=3`, serving.key());
    expect([coarse.body.zoom, coarse.body.precision]).to.deep.equal([4, 0]);
    expect([fine.body.zoom, fine.body.precision]).to.deep.equal([4, 3]);
    expect(fine.body.total).to.equal(coarse.body.total);
    expect(fine.body.cells.every((cell: Cell) => cell.zoom === 7)).to.equal(true);
    expect(fine.body.cells.length).to.be.greaterThan(coarse.body.cells.length);
  });

  it('precision beyond 3 is a 400; beyond the tile limit a 422 on precision', async () => {
    const malformed = await serving.app().get(`/annonces/map/clusters?${FRANCE}&zoom=4&precision=4`, serving.key());
    expect([malformed.status, malformed.body.details[0].field]).to.deep.equal([400, 'precision']);
    const tooFine = await serving.app().get(`/annonces/map/clusters?${FRANCE}&zoom=11&precision=1`, serving.key());
    expect([tooFine.status, tooFine.body.details[0].field]).to.deep.equal([422, 'precision']);
  });
});
