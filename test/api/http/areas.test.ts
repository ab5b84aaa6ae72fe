/**
 * polygone and centre/rayon_km over HTTP (docs/api.md "Polygons and radius"): each rule of the
 * parameters is a 400 naming it, and /annonces, /annonces/map, /annonces/map/clusters and /stats keep
 * the listings of the area, the same on both engines.
 */
import { expect } from 'chai';
import { appServing } from '../../support/app.js';
import { describeEngines } from '../../support/engines.js';
import { makeListings } from '../../support/fixtures.js';
import { expectedSearch, matchesFilter, visibleInSearch } from '../../support/oracle.js';
import { distanceMeters, type GeoArea } from '../../../src/core/query/geo.js';
import type { Scope } from '../../../src/core/query/query.js';

const ALL: Scope = { enteredFrom: 0, eligibleSites: null };
const PARIS = '48.9005,2.2005;48.9005,2.3505;48.8205,2.3505;48.8205,2.2005';
const PARIS_AREA: GeoArea = {
  kind: 'polygon',
  vertices: [
    { lat: 48.9005, lon: 2.2005 },
    { lat: 48.9005, lon: 2.3505 },
    { lat: 48.8205, lon: 2.3505 },
    { lat: 48.8205, lon: 2.2005 },
  ],
};
const LYON_AREA: GeoArea = { kind: 'circle', centre: { lat: 45.76, lon: 4.84 }, radiusKm: 30 };

describeEngines('polygone and rayon_km over HTTP', function (engine) {
  const listings = makeListings({ count: 300, seed: 13 });
  const serving = appServing(engine, listings);

  const refusals: [string, string, RegExp][] = [
    [`/annonces?polygone=48.9,2.2;48.9,2.3`, 'polygone', /at least 3 distinct vertices/],
    [`/annonces?polygone=48.9,2.2;48.9,2.3;48.9,2.2`, 'polygone', /at least 3 distinct vertices/],
    [`/annonces?polygone=${Array.from({ length: 501 }, (_, i) => `${(i / 100).toFixed(2)},${i % 2}`).join(';')}`, 'polygone', /at most 500 vertices/],
    [`/annonces?polygone=48.9,2.2;48.8,2.3;48.9,2.3;48.8,2.2`, 'polygone', /must not cross itself \(edges 1 and 3 meet\)/],
    [`/annonces?polygone=48.9,2.2;48.9,2.3;abc`, 'polygone', /vertex 3: must be lat,lon/],
    [`/annonces?polygone=91,2.2;48.9,2.3;48.8,2.3`, 'polygone', /vertex 1: latitude must be within -90..90/],
    [`/annonces?polygone=80,0;80,120;80,-120`, 'polygone', /must not wind around a pole/],
    [`/annonces?polygone=48,2;49,2;50,2`, 'polygone', /overlap|has no area/],
    [`/annonces?centre=48.85,2.35`, 'centre', /needs rayon_km/],
    [`/annonces?rayon_km=5`, 'rayon_km', /needs centre/],
    [`/annonces?centre=48.85,2.35&rayon_km=0`, 'rayon_km', /must be above 0/],
    [`/annonces?centre=48.85,2.35&rayon_km=100.5`, 'rayon_km', /must be <= 100/],
    [`/annonces?centre=48.85&rayon_km=5`, 'centre', /must be lat,lon/],
    [`/annonces?polygone=${PARIS}&centre=48.85,2.35&rayon_km=5`, 'rayon_km', /not both/],
    [`/annonces?sort=distance`, 'sort', /sort=distance needs centre/],
    [`/annonces?sort=distance&rayon_km=3`, 'rayon_km', /needs centre/],
    [`/stats?polygone=${PARIS}&dept=75`, 'polygone', /exactly one area/],
  ];
  for (const [url, field, message] of refusals) {
    it(`${url.slice(0, 80)}: 400 on ${field}`, async () => {
      const { status, body } = await serving.app().get(url, serving.key());
      expect(status, JSON.stringify(body)).to.equal(400);
      const detail = body.details.find((d: { field: string }) => d.field === field);
      expect(detail, JSON.stringify(body.details)).to.not.equal(undefined);
      expect(detail.message).to.match(message);
    });
  }

  it('a closed ring (last vertex = first) is the same polygon', async () => {
    const open = await serving.app().get(`/annonces?polygone=${PARIS}&page_size=100`, serving.key());
    const closed = await serving.app().get(`/annonces?polygone=${PARIS};48.9005,2.2005&page_size=100`, serving.key());
    expect(closed.body.items).to.deep.equal(open.body.items);
  });

  for (const [label, query, area] of [
    ['polygone', `polygone=${PARIS}`, PARIS_AREA],
    ['centre and rayon_km', 'centre=45.76,4.84&rayon_km=30', LYON_AREA],
  ] as const) {
    it(`${label}: the search, the map, the clusters and the statistics keep the listings of the area`, async () => {
      const expected = expectedSearch(listings, { area }, ALL, true, 'recent');
      expect(expected.length).to.be.greaterThan(3);
      const search = await serving.app().get(`/annonces?${query}&page_size=100`, serving.key());
      expect(search.body.items.map((a: { source: string; reference: string }) => `${a.source}:${a.reference}`)).to.deep.equal(expected);
      const map = await serving.app().get(`/annonces/map?bbox=-90,-180,90,180&${query}`, serving.key());
      expect(map.body.total).to.equal(expected.length);
      const clusters = await serving.app().get(`/annonces/map/clusters?bbox=-90,-180,90,180&zoom=4&${query}`, serving.key());
      expect(clusters.body.total).to.equal(expected.length);
      const stats = await serving.app().get(`/stats?${query}`, serving.key());
      expect(stats.status, JSON.stringify(stats.body)).to.equal(200);
      expect(stats.body.area.kind).to.equal(area.kind);
      expect(stats.body.active.count).to.equal(expected.length);
      const ungrouped = listings.filter((l) => visibleInSearch(l, ALL, false) && matchesFilter(l, { area })).length;
      expect((await serving.app().get(`/annonces/map?bbox=-90,-180,90,180&dedup=0&${query}`, serving.key())).body.total).to.equal(ungrouped);
    });
  }

  it('sort=distance: nearest first from centre (alone or with rayon_km), the cursors walking the same order as the pages', async () => {
    const ids = (body: { items: { source: string; reference: string }[] }) => body.items.map((a) => `${a.source}:${a.reference}`);
    const centre = 'centre=48.85637,2.35219';
    const whole = await serving.app().get(`/annonces?sort=distance&${centre}&page_size=100`, serving.key());
    expect(whole.status, JSON.stringify(whole.body)).to.equal(200);
    const walked: string[] = [];
    let next: string | null = null;
    for (let guard = 0; guard < 50; guard++) {
      const { body } = await serving
        .app()
        .get(`/annonces?sort=distance&${centre}&page_size=9${next ? `&cursor=${encodeURIComponent(next)}` : ''}`, serving.key());
      walked.push(...ids(body));
      if (!body.has_more) break;
      next = body.next_cursor;
    }
    expect(walked.slice(0, 100)).to.deep.equal(ids(whole.body));
    const within = await serving.app().get(`/annonces?sort=distance&${centre}&rayon_km=10&page_size=100`, serving.key());
    expect(ids(within.body)).to.deep.equal(ids(whole.body).slice(0, within.body.items.length));
    expect(within.body.items.length).to.be.within(1, whole.body.items.length - 1);
    const nearest = within.body.items[0];
    const farthest = within.body.items.at(-1);
    const from = { lat: 48.85637, lon: 2.35219 };
    expect(distanceMeters(from, { lat: nearest.latitude, lon: nearest.longitude })).to.be.at.most(
      distanceMeters(from, { lat: farthest.latitude, lon: farthest.longitude }),
    );
  });
});
