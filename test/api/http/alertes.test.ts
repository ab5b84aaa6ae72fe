/**
 * Managing alerts over HTTP (docs/api.md "Alerts"), on both access backends: the offer gate, the
 * per-account limit, the filters validated as /annonces validates them, the receiver URL rules and
 * the JSON body rules of the API's only writes.
 */
import { expect } from 'chai';
import type { TestApp } from '../../support/app.js';
import { describeAccessBackends, send, startAlertApp } from '../../support/alerts.js';
import { NO_RATE_WINDOWS, offersWith } from '../access/support/quota-app.js';
import { AnnoncesClient, ApiError } from '../../../client/index.js';
import { Contract } from '../../support/contract.js';

const RECEIVER = 'http://127.0.0.1:9/hook';

describeAccessBackends('/alertes', function (access) {
  let app: TestApp;
  let key: string;
  const offers = offersWith({ secteur: { maxAlerts: 2 } }, NO_RATE_WINDOWS);

  before(async () => {
    app = await startAlertApp(access, { deps: { offers } });
    key = await app.newKey('sur_mesure');
  });
  after(() => app.close());

  it('creates an alert (201, secret shown once), lists it, reads it and deletes it', async () => {
    const body = { filtres: { ville: ['Lyon', 'Paris'], prix_max: 300000, type: 'appartement' }, evenements: ['baisse_prix', 'nouvelle'], url: RECEIVER };
    const created = await send(app, 'POST', '/alertes', key, body);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const { id, secret } = created.body;
    expect(id).to.match(/^al_[0-9a-f]{32}$/);
    expect(secret).to.match(/^whsec_[A-Za-z0-9_-]{32}$/);
    expect(created.headers.get('location')).to.equal(`/api/v1/alertes/${id}`);
    expect(created.headers.get('x-quota-requests-used')).to.match(/^\d+$/);
    const shown = {
      id,
      url: RECEIVER,
      filtres: { ville: 'Lyon,Paris', prix_max: '300000', type: 'appartement' },
      evenements: ['nouvelle', 'baisse_prix'],
      statut: 'active',
      en_echec_depuis: null,
      en_pause_depuis: null,
      livraisons_en_attente: 0,
    };
    expect(created.body).to.deep.include(shown);
    const one = await send(app, 'GET', `/alertes/${id}`, key);
    expect(one.status).to.equal(200);
    expect(one.body).to.deep.include(shown);
    expect(one.body).not.to.have.property('secret');
    expect(Date.parse(one.body.cree_le)).to.equal(Date.parse(created.body.cree_le));
    const list = await send(app, 'GET', '/alertes', key);
    expect(list.body.items.map((a: any) => a.id)).to.deep.equal([id]);
    expect(list.body).to.deep.include({ count: 1, max: 1000 });
    expect(await send(app, 'GET', `/alertes/${id}/livraisons`, key)).to.deep.include({ status: 200, body: { items: [], count: 0 } });
    expect((await send(app, 'DELETE', `/alertes/${id}`, key)).status).to.equal(204);
    expect((await send(app, 'GET', `/alertes/${id}`, key)).status).to.equal(404);
    expect((await send(app, 'DELETE', `/alertes/${id}`, key)).status).to.equal(404);
  });

  it('sends all three events when evenements is absent', async () => {
    const created = await send(app, 'POST', '/alertes', key, { url: RECEIVER });
    expect(created.status).to.equal(201);
    expect(created.body.evenements).to.deep.equal(['nouvelle', 'baisse_prix', 'retiree']);
    expect(created.body.filtres).to.deep.equal({});
  });

  it("hides another account's alerts (404) and refuses a malformed id (400)", async () => {
    const other = await app.newKey('sur_mesure');
    const { body } = await send(app, 'POST', '/alertes', other, { url: RECEIVER });
    for (const [method, path] of [
      ['GET', `/alertes/${body.id}`],
      ['DELETE', `/alertes/${body.id}`],
      ['GET', `/alertes/${body.id}/livraisons`],
    ]) {
      const answer = await send(app, method, path, key);
      expect(answer.status, `${method} ${path}`).to.equal(404);
      expect(answer.body.code).to.equal('NOT_FOUND');
    }
    expect((await send(app, 'GET', `/alertes/${body.id}`, other)).status).to.equal(200);
    expect((await send(app, 'GET', '/alertes/nope', key)).body.details).to.deep.equal([{ field: 'id', message: 'is not an alert id' }]);
    expect((await send(app, 'GET', `/alertes/${body.id}/livraisons?limit=0`, other)).body.details).to.deep.equal([{ field: 'limit', message: 'must be >= 1' }]);
  });

  it('refuses unknown parameters on every alert route; a bad parameter or id costs no request token', async () => {
    const fresh = await app.newKey('sur_mesure');
    const { body } = await send(app, 'POST', '/alertes', fresh, { url: RECEIVER });
    const used = async () => Number((await send(app, 'GET', '/alertes', fresh)).headers.get('x-quota-requests-used'));
    const before = await used();
    for (const [method, path] of [
      ['GET', '/alertes?page=2'],
      ['POST', '/alertes?page=2'],
      ['GET', `/alertes/${body.id}?verbose=1`],
      ['DELETE', `/alertes/${body.id}?force=1`],
      ['GET', `/alertes/${body.id}/livraisons?page=2`],
    ]) {
      const answer = await send(app, method, path, fresh, method === 'POST' ? { url: RECEIVER } : undefined);
      expect(answer.status, `${method} ${path}`).to.equal(400);
      expect(answer.body.code, `${method} ${path}`).to.equal('UNKNOWN_PARAMETER');
    }
    expect((await send(app, 'GET', '/alertes/nope', fresh)).status).to.equal(400);
    // Since `before`, only the read of the count itself was counted.
    expect(await used()).to.equal(before + 1);
  });

  it('answers 401 without a key, 402 to an offer without alerts, and enforces the per-account limit (409)', async () => {
    expect((await send(app, 'POST', '/alertes', null, { url: RECEIVER })).status).to.equal(401);
    const free = await app.newKey('decouverte');
    const refused = await send(app, 'POST', '/alertes', free, { url: RECEIVER });
    expect(refused.status).to.equal(402);
    expect(refused.body.code).to.equal('PAID_PLAN_REQUIRED');
    expect((await send(app, 'GET', '/alertes', free)).status).to.equal(402);
    const small = await app.newKey('secteur');
    for (let n = 0; n < 2; n++) expect((await send(app, 'POST', '/alertes', small, { url: RECEIVER })).status).to.equal(201);
    const full = await send(app, 'POST', '/alertes', small, { url: RECEIVER });
    expect(full.status).to.equal(409);
    expect(full.body.code).to.equal('ALERT_LIMIT');
    expect(full.body.error).to.contain('2 alerts');
    expect((await send(app, 'GET', '/alertes', small)).body).to.deep.include({ count: 2, max: 2 });
  });

  it('validates the filters exactly as /annonces does, naming each one filtres.<parameter>', async () => {
    const query = await app.get('/annonces?prix_min=abc&dpe=Z&ville=a,b,c,d,e,f,g,h,i&created_since=2026-02-30', key);
    expect(query.status).to.equal(400);
    const alert = await send(app, 'POST', '/alertes', key, {
      url: RECEIVER,
      filtres: { prix_min: 'abc', dpe: 'Z', ville: 'a,b,c,d,e,f,g,h,i', created_since: '2026-02-30', page: '2' },
      evenements: ['nouvelle', 'demenagement'],
    });
    expect(alert.status).to.equal(400);
    const expected = [
      ...query.body.details.map((d: any) => ({ field: `filtres.${d.field}`, message: d.message })),
      { field: 'filtres.page', message: 'is not a filter of /annonces' },
      { field: 'evenements', message: 'must be a list of nouvelle, baisse_prix, retiree' },
    ];
    expect(alert.body.details).to.have.deep.members(expected);
    expect(alert.body.details).to.have.length(expected.length);
  });

  it('answers 422 to contradictory filters, like /annonces', async () => {
    const query = await app.get('/annonces?prix_min=5&prix_max=1', key);
    const alert = await send(app, 'POST', '/alertes', key, { url: RECEIVER, filtres: { prix_min: 5, prix_max: 1 } });
    expect([query.status, alert.status]).to.deep.equal([422, 422]);
    expect(alert.body.details).to.deep.equal([{ field: 'filtres.prix_min', message: query.body.details[0].message }]);
  });

  it('resolves site filters as /annonces does: 402 without them, unknown sites reported', async () => {
    const plain = await app.newKey('secteur');
    const refused = await send(app, 'POST', '/alertes', plain, { url: RECEIVER, filtres: { sources: 'seloger' } });
    expect(refused.status).to.equal(402);
    const created = await send(app, 'POST', '/alertes', key, { url: RECEIVER, filtres: { sources: ['seloger', 'nosuchsite'] } });
    expect(created.status).to.equal(201);
    expect(created.headers.get('x-unknown-sources')).to.equal('nosuchsite');
    const none = await send(app, 'POST', '/alertes', key, { url: RECEIVER, filtres: { sources: 'nosuchsite' } });
    expect(none.body.details).to.deep.equal([{ field: 'sources', message: 'the site filter leaves no site (see GET /sources)' }]);
  });

  it('refuses URLs that are not http(s) or carry credentials', async () => {
    for (const [url, message] of [
      ['ftp://example.com/x', 'must be an http or https URL'],
      ['not a url', 'must be an absolute http or https URL'],
      ['https://user:pw@example.com/x', 'must not carry credentials; authenticate the calls with the signature'],
    ]) {
      const answer = await send(app, 'POST', '/alertes', key, { url });
      expect(answer.status, url).to.equal(400);
      expect(answer.body.details).to.deep.equal([{ field: 'url', message }]);
    }
    expect((await send(app, 'POST', '/alertes', key, {})).body.details).to.deep.equal([
      { field: 'url', message: 'is required: the http(s) URL the events are POSTed to' },
    ]);
  });

  it('reads only a JSON object body: 415 without JSON, 413 above the limit, 400 otherwise', async () => {
    const asText = await send(app, 'POST', '/alertes', key, JSON.stringify({ url: RECEIVER }), { 'Content-Type': 'text/plain' });
    expect([asText.status, asText.body.code]).to.deep.equal([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const huge = await send(app, 'POST', '/alertes', key, { url: RECEIVER, filtres: { q: 'x'.repeat(17_000) } });
    expect([huge.status, huge.body.code]).to.deep.equal([413, 'PAYLOAD_TOO_LARGE']);
    const broken = await send(app, 'POST', '/alertes', key, '{"url":');
    expect(broken.status).to.equal(400);
    expect(broken.body.details[0].field).to.equal('body');
    expect((await send(app, 'POST', '/alertes', key, '[1]')).body.details).to.deep.equal([{ field: 'body', message: 'must be a JSON object' }]);
    const extra = await send(app, 'POST', '/alertes', key, { url: RECEIVER, evenement: ['nouvelle'] });
    expect(extra.body.details).to.deep.equal([{ field: 'evenement', message: 'is not a field of an alert (filtres, evenements, url)' }]);
  });

  it('is managed with the typed client', async () => {
    const client = new AnnoncesClient({ baseUrl: app.base, apiKey: key });
    const created = await client.createAlert({ url: RECEIVER, filtres: { cp: '69003' }, evenements: ['retiree'] });
    expect(created.data.secret).to.be.a('string');
    expect((await client.alert(created.data.id)).data).to.deep.include({ filtres: { cp: '69003' }, evenements: ['retiree'] });
    expect((await client.alerts()).data.items.map((a) => a.id)).to.include(created.data.id);
    expect((await client.alertDeliveries(created.data.id, 10)).data).to.deep.equal({ items: [], count: 0 });
    await client.deleteAlert(created.data.id);
    const gone = await client.alert(created.data.id).catch((error: unknown) => error);
    expect(gone).to.be.instanceOf(ApiError);
    expect((gone as ApiError).status).to.equal(404);
  });

  it('answers as the OpenAPI document declares, errors included', async () => {
    const contract = new Contract((await app.get('/openapi.json')).body);
    const small = await app.newKey('secteur');
    const free = await app.newKey('decouverte');
    const created = await send(app, 'POST', '/alertes', small, { url: RECEIVER });
    await send(app, 'POST', '/alertes', small, { url: RECEIVER });
    const answers: [string, 'get' | 'post' | 'delete', Awaited<ReturnType<typeof send>>, number][] = [
      ['/alertes', 'post', created, 201],
      ['/alertes', 'post', await send(app, 'POST', '/alertes', small, { url: RECEIVER }), 409],
      ['/alertes', 'post', await send(app, 'POST', '/alertes', free, { url: RECEIVER }), 402],
      ['/alertes', 'post', await send(app, 'POST', '/alertes', key, { url: 'ftp://x' }), 400],
      ['/alertes', 'post', await send(app, 'POST', '/alertes', key, { url: RECEIVER, filtres: { sources: 'seloger,nosuchsite' } }), 201],
      ['/alertes', 'post', await send(app, 'POST', '/alertes', key, { url: RECEIVER, filtres: { prix_min: 2, prix_max: 1 } }), 422],
      ['/alertes', 'post', await send(app, 'POST', '/alertes', key, 'x', { 'Content-Type': 'text/plain' }), 415],
      ['/alertes', 'post', await send(app, 'POST', '/alertes', key, { url: 'x'.repeat(20_000) }), 413],
      ['/alertes', 'get', await send(app, 'GET', '/alertes', small), 200],
      ['/alertes/{id}', 'get', await send(app, 'GET', `/alertes/${created.body.id}`, small), 200],
      ['/alertes/{id}', 'get', await send(app, 'GET', `/alertes/${created.body.id}`, key), 404],
      ['/alertes/{id}/livraisons', 'get', await send(app, 'GET', `/alertes/${created.body.id}/livraisons`, small), 200],
      ['/alertes/{id}', 'delete', await send(app, 'DELETE', `/alertes/${created.body.id}`, small), 204],
      ['/alertes/{id}', 'delete', await send(app, 'DELETE', `/alertes/${created.body.id}`, small), 404],
    ];
    for (const [path, method, answer, status] of answers) {
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).to.equal(status);
      contract.check(path, answer, method);
    }
  });

  it('answers 405 with Allow to methods the alert paths do not serve', async () => {
    const put = await send(app, 'PUT', '/alertes', key, { url: RECEIVER });
    expect(put.status).to.equal(405);
    expect(put.headers.get('allow')).to.contain('POST');
    const patch = await send(app, 'PATCH', '/alertes/al_00000000000000000000000000000000', key, {});
    expect(patch.status).to.equal(405);
    expect(patch.headers.get('allow')).to.contain('DELETE');
  });
});

describe('/alertes receiver addresses (private addresses not allowed)', function () {
  let app: TestApp;
  let key: string;
  before(async () => {
    app = await startAlertApp('sqlite', { env: { ALERT_PRIVATE_URLS: '0' } });
    key = await app.newKey('sur_mesure');
  });
  after(() => app.close());

  for (const url of [
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://[::1]/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://10.1.2.3/hook',
    'https://192.168.1.10/hook',
    'http://172.20.0.1/hook',
    'http://[fd00::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
  ]) {
    it(`refuses ${url}`, async () => {
      const answer = await send(app, 'POST', '/alertes', key, { url });
      expect(answer.status).to.equal(400);
      expect(answer.body.details[0].field).to.equal('url');
      expect(answer.body.details[0].message).to.contain('loopback, link-local or private');
    });
  }

  it('accepts a public address', async () => {
    expect((await send(app, 'POST', '/alertes', key, { url: 'https://93.184.215.14/hook' })).status).to.equal(201);
  });
});
