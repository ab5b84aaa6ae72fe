/**
 * GET /openapi.json: a valid OpenAPI 3.1 document (checked by a maintained validator) that covers
 * every route of the router, and that live answers of every endpoint conform to, errors included.
 */
import { expect } from 'chai';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestApp, type TestApp } from '../../support/app.js';
import { describeEngines } from '../../support/engines.js';
import { makeListings } from '../../support/fixtures.js';
import { Contract } from '../../support/contract.js';
import { NO_RATE_WINDOWS, offersWith } from '../access/support/quota-app.js';
import { createRouter, BASE_PATH } from '../../../src/api/http/router.js';
import { StoreUnavailableError } from '../../../src/core/ports/store-unavailable.js';
import type { ListingStore } from '../../../src/core/ports/listing-store.js';
import type { StoredListing } from '../../../src/core/model/stored.js';

/** Listings whose optional parts are all exercised: legal_info as object and as string, completions, a price series. */
function variedListings(): StoredListing[] {
  const listings = makeListings({ count: 250, seed: 23 });
  const active = listings.filter((l) => l.status === 'active' && l.has_photos);
  active[0] = Object.assign(active[0], { content: { ...active[0].content, legal_info: { copropriete: true, lots: 12 } } });
  active[1] = Object.assign(active[1], { content: { ...active[1].content, legal_info: 'Copropriété de 12 lots' } });
  Object.assign(active[2], { completed_from: { description: 'leboncoin', bedrooms: 'pap' } });
  Object.assign(active[3], {
    price_points: [
      { at: '2026-06-23T00:00:00.000Z', price: 300000 },
      { at: '2026-07-10T10:00:00.000Z', price: 290000 },
    ],
  });
  return listings;
}

/** A listings store that is down: every call fails as an unreachable backend does. */
function downStore(store: ListingStore): ListingStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      // The store belongs to the app it was taken from, which closes it.
      if (property === 'close') return async () => {};
      if (typeof value !== 'function') return value;
      return () => Promise.reject(new StoreUnavailableError('test'));
    },
  });
}

const templateOf = (path: string): string =>
  path.startsWith('/annonces/') && !['/annonces/feed', '/annonces/retirees', '/annonces/map', '/annonces/map/clusters'].includes(path.split('?')[0])
    ? '/annonces/{source}/{reference}'
    : path.split('?')[0];

describeEngines('OpenAPI document', function (engine) {
  const listings = variedListings();
  let app: TestApp;
  let contract: Contract;
  let paid: string;
  let cheap: string;

  before(async () => {
    app = await startTestApp({
      listings,
      engine,
      deps: { offers: offersWith({ secteur: { perMinute: 1, perSecond: 100 }, decouverte: { itemsPerMonth: 2 } }, NO_RATE_WINDOWS) },
    });
    paid = await app.newKey('sur_mesure');
    cheap = await app.newKey('ville');
    const served = await app.get('/openapi.json');
    expect(served.status).to.equal(200);
    contract = new Contract(served.body);
  });
  after(async () => {
    await app.close();
  });

  async function conform(path: string, key: string | null, expectedStatus: number, headers: Record<string, string> = {}) {
    const answer = await app.get(path, key, headers);
    expect(answer.status, `${path}: ${JSON.stringify(answer.body).slice(0, 200)}`).to.equal(expectedStatus);
    contract.check(templateOf(path), answer);
    return answer;
  }

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(contract.document);
    expect(result.errors ?? [], JSON.stringify(result.errors)).to.deep.equal([]);
    expect(result.valid).to.equal(true);
    expect(validator.version).to.match(/^3\.1/);
  });

  it('documents every route of the router, both security schemes and the headers of docs/api.md', () => {
    const routed = createRouter(app.service.deps)
      .stack.map((layer) =>
        String(layer.path)
          .slice(BASE_PATH.length)
          .replace(/:(\w+)/g, '{$1}'),
      )
      // The files of the documentation page are not part of the API.
      .filter((path) => path !== '/docs/{file}');
    expect(Object.keys(contract.document.paths).sort()).to.deep.equal([...new Set(routed)].sort());
    expect(Object.keys(contract.document.components.securitySchemes).sort()).to.deep.equal(['ApiKey', 'Bearer']);
    const search = contract.document.paths['/annonces'].get;
    expect(Object.keys(search.responses[200].headers)).to.include.members([
      'X-Annonces-From',
      'X-RateLimit-Limit',
      'X-Quota-Items-Used',
      'X-Quota-Mois-Reset',
      'X-Unknown-Sources',
    ]);
    expect(Object.keys(search.responses[429].headers)).to.include('Retry-After');
    expect(Object.keys(search.responses).sort()).to.deep.equal(['200', '400', '401', '402', '422', '429', '503', 'default']);
  });

  it('declares the parameters with their bounds and defaults, from the zod schemas', () => {
    const params = Object.fromEntries(contract.document.paths['/annonces'].get.parameters.map((p: { name: string }) => [p.name, p]));
    expect(params.page_size.schema).to.include({ type: 'integer', minimum: 1, maximum: 100, default: 25 });
    expect(params.page.schema).to.include({ type: 'integer', minimum: 1, maximum: 1000, default: 1 });
    expect(params.annee_min.schema).to.include({ minimum: 1700, maximum: 2100 });
    expect(params.q.schema).to.include({ type: 'string', maxLength: 120 });
    expect(params.cursor.schema).to.include({ maxLength: 500 });
    expect(params.sort.schema.enum).to.deep.equal(['recent', 'price_asc', 'price_desc', 'surface_desc', 'pricem2_asc', 'distance']);
    expect(params.sort.schema.default).to.equal('recent');
    expect(params.dpe).to.include({ style: 'form', explode: true });
    const feed = Object.fromEntries(contract.document.paths['/annonces/feed'].get.parameters.map((p: { name: string }) => [p.name, p]));
    expect(feed.page_size.schema.default).to.equal(100);
    const map = contract.document.paths['/annonces/map'].get.parameters.find((p: { name: string }) => p.name === 'bbox');
    expect(map.required).to.equal(true);
    const detail = contract.document.paths['/annonces/{source}/{reference}'].get.parameters;
    expect(detail.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).to.deep.equal(['path:source', 'path:reference']);
    expect(detail[0].schema.pattern).to.equal('^[a-z0-9_-]{1,32}$');
  });

  it('declares legal_info as an object or a string, nullable fields as null, bbox as an object', () => {
    const annonce = contract.document.components.schemas.Annonce;
    const legal = JSON.stringify(annonce.properties.legal_info);
    expect(legal).to.include('"type":"object"').and.include('"type":"string"').and.include('"type":"null"');
    expect(annonce.properties.price.type).to.deep.equal(['number', 'null']);
    expect(contract.document.components.schemas.MapAnswer.properties.bbox.type).to.equal('object');
  });

  it('live 200 answers of every endpoint conform, every listing of the catalogue included', async () => {
    await conform('/health', null, 200);
    await conform('/ping', paid, 200);
    await conform('/sources', paid, 200);
    for (const flow of ['/annonces/feed?page_size=100', '/annonces/retirees?page_size=100']) {
      let path = flow;
      for (;;) {
        const { body } = await conform(path, paid, 200);
        if (body.items.length === 0) break;
        path = `${flow}&cursor=${body.next_cursor}`;
      }
    }
    const search = await conform('/annonces?page_size=100&dedup=0', paid, 200);
    expect(search.body.items.some((a: { legal_info: unknown }) => typeof a.legal_info === 'object' && a.legal_info !== null)).to.equal(true);
    await conform('/annonces?page_size=100&sources=seloger,nowhere', paid, 200);
    const faceted = await conform('/annonces?page_size=5&facets=type,pieces,dpe,prix,surface,source', paid, 200);
    expect(Object.keys(faceted.body.facets)).to.have.length(6);
    await conform('/annonces/map?bbox=-90,-180,90,180', paid, 200);
    for (const listing of listings.filter((l) => l.status === 'active').slice(0, 40)) {
      await conform(`/annonces/${listing.content.source}/${listing.content.reference}`, paid, 200);
      await conform(`/annonces/${listing.content.source}/${listing.content.reference}`, cheap, 200);
    }
    const detail = await conform(`/annonces/${listings[0].content.source}/${listings[0].content.reference}`, paid, 200);
    await conform(`/annonces/${listings[0].content.source}/${listings[0].content.reference}`, paid, 304, {
      // fetch adds Cache-Control: no-cache to a conditional request (an end-to-end reload) unless one is set.
      'If-None-Match': detail.headers.get('etag')!,
      'Cache-Control': 'max-age=0',
    });
    await conform('/ptz/zone?cp=75001', paid, 200);
  });

  it('live error answers conform: 400, 401, 402, 404, 422, 429 and 405', async () => {
    await conform('/annonces?page_size=0&prix_min=x', paid, 400);
    await conform('/annonces/map', paid, 400);
    await conform('/annonces?prix_mni=1', paid, 400);
    await conform('/ping?x=1', paid, 400);
    await conform('/ptz/zone?cp=7500', paid, 400);
    await conform('/annonces', null, 401);
    await conform('/ping', 'ak_unknown', 401);
    await conform('/annonces?sources=seloger', cheap, 402);
    await conform('/sources', cheap, 402);
    const free = await app.newKey('decouverte');
    await conform('/annonces?page_size=5', free, 200);
    const refused = await conform('/annonces?page_size=5', free, 402);
    expect(refused.body.code).to.equal('ITEMS_QUOTA');
    await conform('/annonces/seloger/nothing-here', paid, 404);
    const ptz = await conform('/ptz/zone?cp=00000', paid, 404);
    expect(Object.keys(ptz.body)).to.deep.equal(['error']);
    await conform('/annonces?prix_min=5&prix_max=1', paid, 422);
    await conform('/annonces/map?bbox=50,0,40,10', paid, 422);
    const limited = await app.newKey('secteur');
    await conform('/ping', limited, 200);
    await conform('/annonces', limited, 200);
    const tooMany = await conform('/annonces', limited, 429);
    expect(tooMany.headers.get('retry-after')).to.match(/^\d+$/);
    const wrongMethod = await fetch(`${app.base}/annonces`, { method: 'DELETE' });
    contract.check('/annonces', { status: wrongMethod.status, headers: wrongMethod.headers, body: await wrongMethod.json() });
  });

  it('live 503 answers conform when the listings store is down', async () => {
    const down = await startTestApp({ deps: { listings: downStore(app.service.listingStore) } });
    try {
      const key = await down.newKey('sur_mesure');
      for (const path of ['/annonces', '/annonces/feed', '/annonces/retirees', '/annonces/map?bbox=40,-5,52,10', '/annonces/seloger/x']) {
        const answer = await down.get(path, key);
        expect(answer.status, path).to.equal(503);
        contract.check(templateOf(path), answer);
      }
      const health = await down.get('/health');
      expect(health.status).to.equal(503);
      contract.check('/health', health);
    } finally {
      await down.close();
    }
  });
});
