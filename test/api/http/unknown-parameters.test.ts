/**
 * docs/api.md "Unknown parameters": a query parameter a route does not take is a 400
 * UNKNOWN_PARAMETER naming it and the closest name the route takes; the cache-buster `_` is always
 * accepted. Answered before any read, so one engine is enough.
 */
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { makeListings } from '../../support/fixtures.js';

describe('Unknown query parameters over HTTP', () => {
  let app: TestApp;
  let key: string;

  before(async () => {
    app = await startTestApp({ listings: makeListings({ count: 30, seed: 5 }) });
    key = await app.newKey('sur_mesure');
  });
  after(async () => {
    await app.close();
  });

  const cases: [string, string, string | null][] = [
    ['/annonces?prix_mni=100000', 'prix_mni', 'prix_min'],
    ['/annonces?dept=75&sortt=price_asc', 'sortt', 'sort'],
    ['/annonces?Page_Size=10', 'Page_Size', 'page_size'],
    ['/annonces/map?bbox=41,-5,51,10&zoom=4', 'zoom', null],
    ['/annonces/map/clusters?bbox=41,-5,51,10&zoom=4&precison=1', 'precison', 'precision'],
    ['/annonces/feed?pagesize=10', 'pagesize', 'page_size'],
    ['/annonces/retirees?cursr=x', 'cursr', 'cursor'],
    ['/stats?dept=75&transation=vente', 'transation', 'transaction'],
    ['/ptz/zone?cp=75001&cpp=1', 'cpp', 'cp'],
    ['/annonces/seloger/abc?fields=all', 'fields', null],
    ['/ping?verbose=1', 'verbose', null],
    ['/sources?all=1', 'all', null],
    ['/annonces?xyzzy=1', 'xyzzy', null],
  ];

  for (const [url, field, closest] of cases) {
    it(`${url}: 400 UNKNOWN_PARAMETER naming ${field}${closest ? ` and ${closest}` : ''}`, async () => {
      const { status, body } = await app.get(url, key);
      expect(status, JSON.stringify(body)).to.equal(400);
      expect(body.code).to.equal('UNKNOWN_PARAMETER');
      expect(body.details).to.have.length(1);
      expect(body.details[0].field).to.equal(field);
      if (closest) expect(body.details[0].message).to.equal(`unknown parameter; did you mean ${closest}?`);
      else expect(body.details[0].message).to.equal('unknown parameter');
    });
  }

  it('names every unknown parameter, and is answered before malformed values are', async () => {
    const { status, body } = await app.get('/annonces?prix_min=abc&surfce_min=10&q=x&tpe=maison', key);
    expect(status).to.equal(400);
    expect(body.code).to.equal('UNKNOWN_PARAMETER');
    expect(body.details.map((d: { field: string }) => d.field)).to.deep.equal(['surfce_min', 'tpe']);
  });

  it('accepts the cache-buster _ on every route', async () => {
    for (const url of ['/annonces?_=123', '/annonces/map?bbox=41,-5,51,10&_=1', '/ping?_=1', '/ptz/zone?cp=75001&_=1']) {
      const { status, body } = await app.get(url, key);
      expect(status, `${url} ${JSON.stringify(body)}`).to.equal(200);
    }
  });
});
