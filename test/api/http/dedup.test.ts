/**
 * Deduplication over HTTP, with the real indexer writing: raw records of one flat on three sites go
 * through runLoad + DedupGrouping into the service's store, then the API is asked.
 * - grouped search returns the property once, under its best-ranked site, with sources[] and the
 *   `<field>_source` completions; dedup=0 returns every site listing;
 * - site filters pick the best-ranked ELIGIBLE site (exclude_sources=<main site> shows the next one);
 * - the feed delivers the sites separately;
 * - when the reference listing is withdrawn, the next site becomes the reference.
 */
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { describeEngines } from '../../support/engines.js';
import { groupedLoader } from '../../support/grouped-load.js';
import { flat, onLeboncoin, onPap, onSeloger } from '../../indexer/dedup/raw-flats.js';

describeEngines('deduplication over HTTP (/annonces, feed, withdrawn flow)', function (engine) {
  this.timeout(60_000);
  let app: TestApp;
  let key: string;
  const other = flat('bienici', 'ELSE-1', { postal_code: '69007', price: '210 000 €', surface: '41 m²', rooms: 2, description: 'Deux pièces à Gerland.' });

  const load = groupedLoader(() => app.service.listingStore, Date.parse('2026-11-10T00:00:00Z'));
  const search = async (query: string) => {
    const { status, body } = await app.get(`/annonces?cp=69003&page_size=50${query}`, key);
    expect(status, JSON.stringify(body)).to.equal(200);
    return body.items as any[];
  };

  beforeEach(async () => {
    app = await startTestApp({ engine });
    app.clock.now = Date.parse('2026-11-20T00:00:00Z');
    key = await app.newKey('sur_mesure');
    // seloger (best-ranked) has neither description nor photos nor bedrooms; leboncoin and pap have them.
    await load([onSeloger(), onLeboncoin(), onPap(), other]);
  });
  afterEach(async () => {
    await app.close();
  });

  it('grouped search returns the property once, under its best-ranked site, with sources[] and is_main', async () => {
    const items = await search('');
    expect(items).to.have.length(1);
    const [item] = items;
    expect(item).to.include({ source: 'seloger', reference: 'SL-1' });
    expect(item.dedup_key).to.match(/^d_/);
    expect(item.sources).to.deep.equal([
      { source: 'seloger', reference: 'SL-1', url: 'https://www.seloger.example/annonce/SL-1', price: 320000, is_main: true },
      { source: 'leboncoin', reference: 'LBC-1', url: 'https://www.leboncoin.example/annonce/LBC-1', price: 326400, is_main: false },
      { source: 'pap', reference: 'PAP-1', url: 'https://www.pap.example/annonce/PAP-1', price: 316000, is_main: false },
    ]);
  });

  it('completes missing fields from the best-ranked member that has them and names the site in <field>_source', async () => {
    const [item] = await search('');
    expect(item.description).to.contain('NOUVEAU Au cœur de Lyon');
    expect(item.description_source).to.equal('leboncoin');
    expect(item.images).to.deep.equal(['https://img.leboncoin.example/LBC-1-1.jpg', 'https://img.leboncoin.example/LBC-1-2.jpg']);
    expect(item.images_count).to.equal(2);
    expect(item.images_source).to.equal('leboncoin');
    expect(item.bedrooms).to.equal(2);
    expect(item.bedrooms_source).to.equal('leboncoin');
    // Own values carry no `<field>_source`.
    expect(item).to.not.have.property('title_source');
    expect(item).to.not.have.property('dpe_source');
    expect(item).to.not.have.property('price_source');
    // The detail of the pap listing: its cut description is its own; its missing energy values come from seloger.
    const { body } = await app.get('/annonces/pap/PAP-1', key);
    expect(body.annonce.description).to.match(/…$/);
    expect(body.annonce).to.not.have.property('description_source');
    expect(body.annonce).to.include({ dpe_value: 212, dpe_value_source: 'seloger', ges_value_source: 'seloger' });
    // is_main marks the group's main site, not the listing shown (SPEC: `source` of the reference listing is the main site).
    expect(body.annonce.sources.map((s: any) => [s.source, s.is_main])).to.deep.equal([
      ['seloger', true],
      ['leboncoin', false],
      ['pap', false],
    ]);
  });

  // Kept on purpose (docs/api.md "Where the API departs from its specification"): copies that show no
  // price still form a group (they only meet each other), and sources[] says so with price null rather
  // than leaving them out or inventing a number.
  it('a group of copies that show no price lists them in sources[] with price null', async () => {
    const unpriced = { collected_at: '2026-11-05T10:00:00Z', price: null };
    await load([onSeloger(unpriced), onLeboncoin(unpriced), onPap(unpriced)]);
    const [item] = await search('');
    expect(item.sources.map((s: any) => [s.source, s.price, s.is_main])).to.deep.equal([
      ['seloger', null, true],
      ['leboncoin', null, false],
      ['pap', null, false],
    ]);
  });

  it("dedup=0 returns every site listing, each with the group's key", async () => {
    const items = await search('&dedup=0');
    expect(items.map((i) => i.source).sort()).to.deep.equal(['leboncoin', 'pap', 'seloger']);
    expect(new Set(items.map((i) => i.dedup_key)).size).to.equal(1);
    const lbc = items.find((i) => i.source === 'leboncoin');
    for (const item of items.filter((i) => i.sources))
      expect(
        item.sources.filter((s: any) => s.is_main).map((s: any) => s.source),
        item.source,
      ).to.deep.equal(['seloger']);
    expect(lbc.sources.find((s: any) => s.is_main).source).to.equal('seloger');
  });

  it('site filters pick the best-ranked eligible site: exclude_sources=<main site> shows the next one', async () => {
    const withoutMain = await search('&exclude_sources=seloger');
    expect(withoutMain.map((i) => `${i.source}:${i.reference}`)).to.deep.equal(['leboncoin:LBC-1']);
    // The listing shown is leboncoin's; the group's main site is still seloger.
    expect(withoutMain[0].sources.find((s: any) => s.is_main).source).to.equal('seloger');
    expect((await search('&sources=pap')).map((i) => i.source)).to.deep.equal(['pap']);
    expect((await search('&sources=pap,leboncoin')).map((i) => i.source)).to.deep.equal(['leboncoin']);
    expect(await search('&sources=bienici')).to.deep.equal([]);
  });

  it('the feed delivers the sites of one property separately', async () => {
    const { status, body } = await app.get('/annonces/feed?page_size=100', key);
    expect(status).to.equal(200);
    const ids = body.items.map((i: any) => `${i.source}:${i.reference}`).sort();
    expect(ids).to.deep.equal(['bienici:ELSE-1', 'leboncoin:LBC-1', 'pap:PAP-1', 'seloger:SL-1']);
    // Every member of the group names the same main site, whichever member the item is.
    const mains = body.items.filter((i: any) => i.sources).map((i: any) => i.sources.filter((s: any) => s.is_main).map((s: any) => s.source));
    expect(mains).to.deep.equal([['seloger'], ['seloger'], ['seloger']]);
  });

  it('when the reference listing is withdrawn, the next site becomes the reference under the same key', async () => {
    const [before] = await search('');
    const { body: feedBefore } = await app.get('/annonces/feed?page_size=100', key);
    await load([onSeloger({ collected_at: '2026-11-05T10:00:00Z', status: 'vendue' })]);
    const items = await search('');
    expect(items.map((i) => `${i.source}:${i.reference}`)).to.deep.equal(['leboncoin:LBC-1']);
    expect(items[0].dedup_key).to.equal(before.dedup_key);
    expect(items[0].sources.map((s: any) => [s.source, s.is_main])).to.deep.equal([
      ['leboncoin', true],
      ['pap', false],
    ]);
    // The withdrawn flow delivers seloger on its own; the feed redelivers the members whose sources[] changed.
    const { body: withdrawn } = await app.get('/annonces/retirees?page_size=100', key);
    expect(withdrawn.items.map((i: any) => [i.source, i.reason, i.dedup_key])).to.deep.equal([['seloger', 'vendue', null]]);
    const { body: feedAfter } = await app.get(`/annonces/feed?page_size=100&cursor=${encodeURIComponent(feedBefore.next_cursor)}`, key);
    expect(feedAfter.items.map((i: any) => i.source).sort()).to.deep.equal(['leboncoin', 'pap']);
  });
});
