/**
 * GET /annonces?facets=… over HTTP (docs/api.md "Facets"): `total` is the whole query a walk of its
 * pages returns, each facet adds up to it when its own filter is absent, the site filters leave the
 * source facet whole, and facets cost no listing quota.
 */
import { expect } from 'chai';
import { appServing } from '../../support/app.js';
import { describeEngines } from '../../support/engines.js';
import { FIXTURE_SITES, makeListings } from '../../support/fixtures.js';
import { expectedSearch } from '../../support/oracle.js';
import type { Scope } from '../../../src/core/query/query.js';

interface Bucket {
  count: number;
}
interface Facet {
  buckets: Bucket[];
  other?: number;
  unknown: number;
}

const sum = (facet: Facet) => facet.buckets.reduce((s, b) => s + b.count, 0) + (facet.other ?? 0) + facet.unknown;

describeEngines('GET /annonces facets', function (engine) {
  const listings = makeListings({ count: 300, seed: 9 });
  const ALL: Scope = { enteredFrom: 0, eligibleSites: null };
  const serving = appServing(engine, listings);

  it('without facets the answer is as before: no total, no facets', async () => {
    const { status, body } = await serving.app().get('/annonces?dept=75&page_size=5', serving.key());
    expect(status).to.equal(200);
    expect(body).to.not.have.any.keys('total', 'facets');
  });

  it('total is the whole query; every facet without its own filter adds up to it, in the order asked by the contract', async () => {
    const { status, body } = await serving.app().get('/annonces?transaction=vente&page_size=5&facets=source,type,pieces,dpe,prix,surface', serving.key());
    expect(status, JSON.stringify(body)).to.equal(200);
    expect(body.total).to.equal(expectedSearch(listings, { transaction: 'vente' }, ALL, true, 'recent').length);
    expect(body.items).to.have.length(5);
    expect(Object.keys(body.facets)).to.deep.equal(['type', 'pieces', 'dpe', 'prix', 'surface', 'source']);
    for (const name of Object.keys(body.facets)) expect(sum(body.facets[name]), name).to.equal(body.total);
    expect(body.facets.prix.buckets[0]).to.deep.include({ from: 0, to: 100_000 });
    expect(body.facets.prix.buckets.at(-1)).to.deep.include({ from: 1_000_000, to: null });
  });

  it("a facet's own filter does not narrow it: the type facet of type=maison counts every type", async () => {
    const { body } = await serving.app().get('/annonces?type=maison&facets=type', serving.key());
    const everyType = expectedSearch(listings, {}, ALL, true, 'recent').length;
    expect(body.total).to.equal(expectedSearch(listings, { types: ['maison'] }, ALL, true, 'recent').length);
    expect(sum(body.facets.type)).to.equal(everyType);
    const maison = body.facets.type.buckets.find((b: { value: string }) => b.value === 'maison');
    expect(maison.count).to.equal(body.total);
  });

  it('rents count in the rent ranges', async () => {
    const { body } = await serving.app().get('/annonces?transaction=location&facets=prix', serving.key());
    expect(body.facets.prix.buckets.map((b: { from: number }) => b.from)).to.deep.equal([0, 500, 750, 1000, 1500, 2000, 3000]);
    expect(sum(body.facets.prix)).to.equal(body.total);
  });

  it('the source facet counts every site while the page keeps the site filter', async () => {
    const { status, body } = await serving.app().get(`/annonces?sources=${FIXTURE_SITES[0]}&facets=source`, serving.key());
    expect(status).to.equal(200);
    const values = body.facets.source.buckets.map((b: { value: string }) => b.value);
    expect(values.length).to.be.greaterThan(1);
    expect(sum(body.facets.source)).to.equal(expectedSearch(listings, {}, ALL, true, 'recent').length);
  });

  it('facets follow cursors: the next page answers the same counts', async () => {
    const first = await serving.app().get('/annonces?dept=69&page_size=3&facets=dpe', serving.key());
    const second = await serving.app().get(`/annonces?dept=69&page_size=3&facets=dpe&cursor=${encodeURIComponent(first.body.next_cursor)}`, serving.key());
    expect(second.body.facets).to.deep.equal(first.body.facets);
    expect(second.body.total).to.equal(first.body.total);
  });

  it('an unknown facet or a repeated facets parameter is a 400 on facets', async () => {
    for (const url of ['/annonces?facets=type,prixx', '/annonces?facets=type&facets=dpe']) {
      const { status, body } = await serving.app().get(url, serving.key());
      expect(status, url).to.equal(400);
      expect(body.details.map((d: { field: string }) => d.field)).to.deep.equal(['facets']);
    }
  });

  it('facets cost no listing quota: only the page is counted', async () => {
    const metered = await serving.app().newKey('secteur');
    const reply = await serving.app().get('/annonces?page_size=4&facets=type,pieces,dpe,prix,surface,source', metered);
    expect(reply.status).to.equal(200);
    expect(reply.headers.get('x-quota-items-used')).to.equal('4');
  });
});
