/**
 * docs/upgrading.md: a parameter kept without effect is marked deprecated in the served OpenAPI
 * document, and keeps being accepted with the same answer.
 */
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { makeListings } from '../../support/fixtures.js';
import { NO_RATE_WINDOWS, offersWith } from '../access/support/quota-app.js';

describe('deprecated parameters (docs/upgrading.md)', () => {
  let app: TestApp;
  let key: string;
  before(async () => {
    app = await startTestApp({ listings: makeListings({ count: 30, seed: 5 }), deps: { offers: offersWith({}, NO_RATE_WINDOWS) } });
    key = await app.newKey('secteur');
  });
  after(async () => {
    await app.close();
  });

  it('source on /annonces is marked deprecated and still answers as without it', async () => {
    const { body: document } = await app.get('/openapi.json');
    const parameters = document.paths['/annonces'].get.parameters as { name: string; deprecated?: boolean }[];
    expect(parameters.filter((p) => p.deprecated).map((p) => p.name)).to.deep.equal(['source']);
    const plain = await app.get('/annonces?page_size=10', key);
    for (const value of ['all', 'interne', 'scraped']) {
      const withSource = await app.get(`/annonces?page_size=10&source=${value}`, key);
      expect(withSource.status, value).to.equal(200);
      expect(
        withSource.body.items.map((a: { reference: string }) => a.reference),
        value,
      ).to.deep.equal(plain.body.items.map((a: { reference: string }) => a.reference));
    }
  });
});
