/**
 * Sparse real-shaped records over HTTP, loaded by the real indexer into the service's store: a
 * SeLoger-like record (no title, no type, the postal code in the city field) and a Leboncoin-like
 * copy (the city name only, blurred coordinates) are stored, grouped across Toulon's postal codes,
 * and served with the non-null title and type the API promises.
 */
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { describeEngines } from '../../support/engines.js';
import { writeNdjson } from '../../support/raw.js';
import { runLoad } from '../../../indexer/load.js';
import { DedupGrouping } from '../../../indexer/dedup/stage.js';
import { loadSites } from '../../../src/core/model/sites.js';
import { loadCommunes } from '../../../src/core/refdata/communes.js';

describeEngines('sparse real-shaped records over HTTP', function (engine) {
  this.timeout(60_000);
  let app: TestApp;
  let key: string;

  before(async () => {
    app = await startTestApp({ engine });
    app.clock.now = Date.parse('2026-11-20T00:00:00Z');
    key = await app.newKey('sur_mesure');
    const sites = loadSites();
    const report = await runLoad({
      files: [
        writeNdjson([
          {
            source: 'seloger',
            reference: '262973311',
            url: 'https://www.seloger.com/annonces/achat/appartement/toulon-83/brunet/262973311.htm',
            collected_at: '2026-11-10T16:37:09Z',
            transaction: 'vente',
            price: '210000.0',
            surface: '65.95',
            rooms: '4.0',
            city: '83100',
            images: ['https://img.example/1.jpg'],
          },
          {
            source: 'leboncoin',
            reference: '3100000001',
            url: 'https://www.leboncoin.fr/ad/ventes_immobilieres/3100000001',
            collected_at: '2026-11-11T08:00:00Z',
            category: 'Ventes immobilières',
            type: 'Appartement',
            price: 210000,
            surface: 66,
            rooms: 4,
            city: 'Toulon',
            latitude: 43.1221,
            longitude: 5.9312,
            images: ['https://img.example/2.jpg'],
          },
        ]),
      ],
      store: app.service.listingStore,
      sites,
      communes: loadCommunes(),
      grouping: new DedupGrouping({ sites }),
      now: () => Date.parse('2026-11-12T00:00:00Z'),
    });
    expect(report).to.include({ written: 2, rejected: 0 });
  });
  after(async () => {
    await app.close();
  });

  it('serves the SeLoger-like listing with a type from its URL and a built title', async () => {
    const { status, body } = await app.get('/annonces/seloger/262973311', key);
    expect(status).to.equal(200);
    expect(body.annonce).to.include({
      type: 'Appartement',
      title: 'Appartement 4 pièces 65,95 m² à Toulon',
      postal_code: '83100',
      city: 'Toulon',
      surface: 65.95,
    });
  });

  it('returns the two sites as one property, the Leboncoin copy without a postal code included', async () => {
    const { status, body } = await app.get('/annonces?dept=83&page_size=50', key);
    expect(status).to.equal(200);
    expect(body.items).to.have.length(1);
    expect(body.items[0]).to.include({ source: 'seloger', reference: '262973311' });
    expect(body.items[0].sources.map((s: { source: string }) => s.source)).to.deep.equal(['seloger', 'leboncoin']);
    const all = await app.get('/annonces?dept=83&dedup=0&page_size=50', key);
    const leboncoin = all.body.items.find((item: { source: string }) => item.source === 'leboncoin');
    expect(leboncoin).to.include({ postal_code: null, city: 'Toulon', type: 'Appartement' });
    expect(leboncoin.dedup_key).to.equal(body.items[0].dedup_key);
  });
});
