/**
 * HTTP conventions over the real app: JSON answers for every method, HEAD, compression, ETag and
 * 304, caching and content-type headers, and what HEAD and refused requests cost.
 */
import { expect } from 'chai';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestApp, type TestApp } from '../../support/app.js';
import { describeEngines, engineMissing } from '../../support/engines.js';
import { makeListings } from '../../support/fixtures.js';
import { recordReliability } from '../../support/reliability-output.js';
import { NO_RATE_WINDOWS, offersWith, startQuotaApp, type AccessBackendName } from '../access/support/quota-app.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

/** What this file tried, for the reliability report: exchanges sent, and tests passed of those run. */
const tally = { requests: 0, passed: 0, run: 0 };

/** A raw HTTP exchange: fetch forbids TRACE and hides the encoding of the body it decompresses. */
function raw(app: TestApp, method: string, pathAndQuery: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  tally.requests++;
  return new Promise((resolve, reject) => {
    const req = request(app.base + pathAndQuery, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const json = (answer: RawAnswer): any => JSON.parse(answer.bytes.toString('utf8'));

describeEngines('HTTP conventions', function (engine) {
  const listings = makeListings({ count: 200, seed: 11 });
  let app: TestApp;
  let key: string;

  before(async () => {
    app = await startTestApp({ listings, engine, deps: { offers: offersWith({}, NO_RATE_WINDOWS) } });
    key = await app.newKey('sur_mesure');
  });
  after(async () => {
    await app.close();
  });

  describe('methods', () => {
    it('answers a method the path does not serve with a JSON 405 and Allow', async () => {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
        const answer = await raw(app, method, '/annonces', { 'X-Api-Key': key });
        expect(answer.status, method).to.equal(405);
        expect(answer.headers['content-type']).to.match(/^application\/json/);
        expect(answer.headers.allow?.toString().split(/,\s*/).sort()).to.deep.equal(['GET', 'HEAD']);
        expect(json(answer)).to.include({ code: 'METHOD_NOT_ALLOWED' });
        expect(json(answer).error).to.be.a('string');
      }
    });

    it('answers TRACE and the other standard methods it does not serve with a JSON 405 and Allow, as POST', async () => {
      for (const method of ['TRACE', 'PROPFIND', 'PURGE', 'LINK']) {
        const answer = await raw(app, method, '/ping');
        expect(answer.status, method).to.equal(405);
        expect(answer.headers['content-type'], method).to.match(/^application\/json/);
        expect(answer.headers.allow?.toString().split(/,\s*/).sort(), method).to.deep.equal(['GET', 'HEAD']);
        expect(json(answer), method).to.include({ code: 'METHOD_NOT_ALLOWED' });
      }
    });

    it('keeps 404 NOT_FOUND for any method on an unknown path', async () => {
      const answer = await raw(app, 'POST', '/nowhere');
      expect([answer.status, json(answer).code]).to.deep.equal([404, 'NOT_FOUND']);
    });

    it('answers HEAD wherever GET is allowed, with the headers of GET and no body', async () => {
      for (const path of ['/health', '/ping', '/annonces?page_size=3', '/ptz/zone?cp=75001']) {
        const answer = await raw(app, 'HEAD', path, { 'X-Api-Key': key });
        expect(answer.status, path).to.equal(200);
        expect(answer.bytes.length, path).to.equal(0);
        expect(answer.headers['content-type'], path).to.match(/^application\/json/);
      }
    });
  });

  describe('headers', () => {
    it('sends X-Content-Type-Options: nosniff on every answer', async () => {
      const answers = await Promise.all([
        raw(app, 'GET', '/health'),
        raw(app, 'GET', '/ping'),
        raw(app, 'GET', '/nowhere'),
        raw(app, 'GET', '/annonces', { 'X-Api-Key': key }),
        raw(app, 'DELETE', '/annonces'),
      ]);
      for (const answer of answers) expect(answer.headers['x-content-type-options']).to.equal('nosniff');
    });

    it('marks keyed answers no-store and PTZ cacheable privately for a day', async () => {
      for (const path of ['/ping', '/annonces', '/annonces/feed', '/annonces/retirees', '/sources', '/annonces/map?bbox=40,-5,52,10']) {
        const answer = await raw(app, 'GET', path, { 'X-Api-Key': key });
        expect(answer.headers['cache-control'], path).to.equal('no-store');
      }
      expect((await raw(app, 'GET', '/ping')).headers['cache-control']).to.equal('no-store');
      expect((await raw(app, 'GET', '/ptz/zone?cp=75001', { 'X-Api-Key': key })).headers['cache-control']).to.equal('private, max-age=86400');
    });
  });

  describe('compression', () => {
    it('compresses a large JSON body with the negotiated encoding', async () => {
      const plain = await raw(app, 'GET', '/annonces?page_size=20&dedup=0', { 'X-Api-Key': key });
      expect(plain.headers['content-encoding']).to.equal(undefined);
      expect(plain.bytes.length).to.be.above(1024);
      const gzip = await raw(app, 'GET', '/annonces?page_size=20&dedup=0', { 'X-Api-Key': key, 'Accept-Encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).to.equal('gzip');
      expect(gzip.headers.vary).to.match(/Accept-Encoding/i);
      expect(gunzipSync(gzip.bytes).equals(plain.bytes)).to.equal(true);
      const br = await raw(app, 'GET', '/annonces?page_size=20&dedup=0', { 'X-Api-Key': key, 'Accept-Encoding': 'gzip, br' });
      expect(br.headers['content-encoding']).to.equal('br');
      expect(br.bytes.length).to.be.below(plain.bytes.length);
      expect(brotliDecompressSync(br.bytes).equals(plain.bytes)).to.equal(true);
    });

    it('leaves a small body uncompressed', async () => {
      const answer = await raw(app, 'GET', '/ping', { 'X-Api-Key': key, 'Accept-Encoding': 'gzip, br' });
      expect(answer.bytes.length).to.be.below(1024);
      expect(answer.headers['content-encoding']).to.equal(undefined);
    });
  });

  describe('conditional requests', () => {
    it('tags a listing detail and answers 304 to If-None-Match', async () => {
      const listing = listings.find((l) => l.status === 'active')!;
      const path = `/annonces/${listing.content.source}/${listing.content.reference}`;
      const first = await raw(app, 'GET', path, { 'X-Api-Key': key });
      expect(first.status).to.equal(200);
      const tag = first.headers.etag as string;
      expect(tag).to.be.a('string');
      const again = await raw(app, 'GET', path, { 'X-Api-Key': key, 'If-None-Match': tag });
      expect(again.status).to.equal(304);
      expect(again.bytes.length).to.equal(0);
      expect(again.headers.etag).to.equal(tag);
      const other = listings.find((l) => l.status === 'active' && l.id !== listing.id)!;
      const otherAnswer = await raw(app, 'GET', `/annonces/${other.content.source}/${other.content.reference}`, { 'X-Api-Key': key, 'If-None-Match': tag });
      expect(otherAnswer.status).to.equal(200);
      expect(otherAnswer.headers.etag).to.not.equal(tag);
    });

    it('tags a PTZ answer and answers 304 to If-None-Match', async () => {
      const first = await raw(app, 'GET', '/ptz/zone?cp=75001', { 'X-Api-Key': key });
      const again = await raw(app, 'GET', '/ptz/zone?cp=75001', { 'X-Api-Key': key, 'If-None-Match': first.headers.etag as string });
      expect([first.status, again.status]).to.deep.equal([200, 304]);
      expect(again.headers['cache-control']).to.equal('private, max-age=86400');
    });
  });
});

for (const backend of ['sqlite', 'redis'] as AccessBackendName[]) {
  describe(`what HEAD and refused requests cost (${backend} access backend)`, function () {
    let app: TestApp;
    before(async function () {
      if (backend === 'redis' && !process.env.REDIS_URL) this.skip();
      app = await startQuotaApp(backend, offersWith({}, NO_RATE_WINDOWS));
    });
    after(async () => {
      await app?.close();
    });

    it('does not count the page of a HEAD against the listing quota', async () => {
      const fresh = await app.newKey('sur_mesure');
      expect((await raw(app, 'HEAD', '/annonces?page_size=100&dedup=0', { 'X-Api-Key': fresh })).status).to.equal(200);
      const after = await raw(app, 'GET', '/annonces?page_size=1', { 'X-Api-Key': fresh });
      expect(after.headers['x-quota-items-used']).to.equal('1');
      expect(after.headers['x-quota-requests-used']).to.equal('2');
    });

    it('takes no daily request token for a request refused with 402', async () => {
      const cheap = await app.newKey('ville');
      const refused = [await raw(app, 'GET', '/annonces?sources=seloger', { 'X-Api-Key': cheap }), await raw(app, 'GET', '/sources', { 'X-Api-Key': cheap })];
      for (const answer of refused) expect([answer.status, json(answer).code]).to.deep.equal([402, 'PAID_PLAN_REQUIRED']);
      const after = await raw(app, 'GET', '/annonces?page_size=1', { 'X-Api-Key': cheap });
      expect(after.headers['x-quota-requests-used']).to.equal('1');
    });
  });
}

describe('HTTP conventions in the reliability report', () => {
  // Mocha runs files' top-level suites in order: this one comes after every test above.
  it('records what the conventions tests tried and how they ended', function () {
    expect(tally.run).to.be.greaterThan(0);
    recordReliability('http-conventions', {
      title:
        'Every method a path does not serve (POST, PUT, DELETE, PATCH, OPTIONS, TRACE, PROPFIND, PURGE, LINK), HEAD on each GET path, HEAD and 402-refused requests against the counters, the headers of every kind of answer',
      test: 'test/api/http/conventions.test.ts',
      cases: tally.requests,
      unit: 'requests',
      backend: engineMissing('elasticsearch') === null ? 'sqlite and elasticsearch' : 'sqlite',
      result: `${tally.passed} of ${tally.run} tests passed: 405 with Allow as a JSON error, HEAD counts no listing, a 402 takes no request token, nosniff on every answer, no-store on keyed answers`,
    });
  });
});

afterEach(function () {
  if (!this.currentTest?.file?.endsWith('conventions.test.ts') || this.currentTest.title.startsWith('records what')) return;
  tally.run++;
  if (this.currentTest.state === 'passed') tally.passed++;
});
