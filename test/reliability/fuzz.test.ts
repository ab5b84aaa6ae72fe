/**
 * Property-based test of every endpoint's parameters (fast-check): query parameters valid, nearly
 * valid, hostile or repeated, cursors signed with the service's own secret but holding any JSON,
 * unsigned junk, raw bytes that are not UTF-8, and arbitrary path parameters. Whatever is sent: no
 * 500, every body is JSON, every error has the documented shape, and a 400 names fields that were
 * actually sent (or the missing required one).
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { createHmac } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/app.js';
import { makeListings } from '../support/fixtures.js';
import { SearchParams } from '../../src/api/routes/annonces/schema.js';
import { FeedParams } from '../../src/api/routes/feed/schema.js';
import { WithdrawnParams } from '../../src/api/routes/retirees/schema.js';
import { MapParams } from '../../src/api/routes/map/schema.js';
import { PtzParams } from '../../src/api/routes/ptz/schema.js';
import { recordReliability } from '../support/reliability-output.js';

/** Requests per property run (sent concurrently) and runs: REQUESTS_PER_RUN x RUNS requests per CI run. */
const REQUESTS_PER_RUN = 50;
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SECRET = 'test-secret';

const ENDPOINTS: { path: string; params: string[]; cursorKinds: string[] }[] = [
  {
    path: '/annonces',
    params: Object.keys(SearchParams.shape),
    cursorKinds: ['search:recent', 'search:price_asc', 'search:price_desc', 'search:surface_desc', 'search:pricem2_asc'],
  },
  { path: '/annonces/feed', params: Object.keys(FeedParams.shape), cursorKinds: ['feed'] },
  { path: '/annonces/retirees', params: Object.keys(WithdrawnParams.shape), cursorKinds: ['retirees'] },
  { path: '/annonces/map', params: Object.keys(MapParams.shape), cursorKinds: [] },
  { path: '/ptz/zone', params: Object.keys(PtzParams.shape), cursorKinds: [] },
  { path: '/sources', params: [], cursorKinds: [] },
  { path: '/ping', params: [], cursorKinds: [] },
];

const sign = (kind: string, position: unknown): string => {
  const payload = Buffer.from(JSON.stringify({ k: kind, p: position })).toString('base64url');
  return `${payload}.${createHmac('sha256', SECRET).update(payload).digest('base64url').slice(0, 22)}`;
};

/** Values that are valid for some parameter, nearly valid, or hostile. */
const typical = fc.constantFrom(
  '',
  ' ',
  '0',
  '1',
  '2',
  '25',
  '100',
  '101',
  '1000',
  '1001',
  '-1',
  '+5',
  '1e3',
  '1.5',
  '45,5',
  '999999999999999',
  'NaN',
  'Infinity',
  'null',
  'true',
  'false',
  '2026-11-01',
  '2026-02-30',
  '2026-13-01',
  '2026-11-01T00:00:00Z',
  '2026-11-01T25:00:00Z',
  '0000-00-00',
  '9999-12-31',
  'vente',
  'location',
  'VENTE',
  'appartement',
  'maison,terrain',
  'A',
  'a,b,g',
  'Z',
  'A,,B',
  'recent',
  'price_asc',
  'pricem2_asc',
  'nope',
  'seloger',
  'seloger,pap',
  'pap,unknown',
  '75011',
  '69',
  '2A',
  '2B',
  '971',
  '00000',
  'Lyon',
  'Lyon,Villeurbanne',
  'Île-de-France',
  "'; DROP TABLE listings; --",
  '48.8,2.2,48.9,2.4',
  '48.9,2.4,48.8,2.2',
  '-90,-180,90,180',
  '10,170,20,-170',
  '1,2,3',
  '1,2,3,4,5',
  'a,b,c,d',
  '91,0,92,1',
  '0,0,0,0',
  '%00',
  '\u0000',
  '\uFEFF1',
  '0',
  '1',
  'false',
  'true',
  'all',
  'interne',
  'scraped',
  'cheminée parquet',
  '"',
  '*',
  '(',
  'NEAR',
  'AND OR',
  '^',
  'é'.repeat(300),
);
const anyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ minLength: 200, maxLength: 2500 }),
);
const number = fc.oneof(fc.integer(), fc.double({ noNaN: false }), fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n })).map(String);
/** Positions of any shape: only the flow's own may pass. */
const position = fc.oneof(
  fc.array(
    fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, 1, -1, 1e18, 2 ** 31, 2 ** 53), fc.string({ maxLength: 12 }), fc.constant(null), fc.boolean()),
    { maxLength: 5 },
  ),
  fc.jsonValue({ maxDepth: 2 }),
);
/** A cursor signed by the service's secret for this flow (or another one), holding any position. */
const signedCursor = (kinds: string[]) => fc.tuple(fc.constantFrom(...kinds), position).map(([kind, p]) => sign(kind, p));
const cursorFor = (kinds: string[]) =>
  fc.oneof(
    signedCursor([...kinds, 'feed', 'retirees', 'search:recent', 'other']),
    fc.string({ maxLength: 600 }),
    fc.base64String({ maxLength: 120 }).map((s) => `${s}.${s.slice(0, 22)}`),
  );

interface FuzzRequest {
  url: string;
  sent: string[];
  path: string;
}

const queryRequest = fc
  .constantFrom(...ENDPOINTS)
  .chain((endpoint) =>
    fc.tuple(
      fc.constant(endpoint),
      fc.array(
        fc.tuple(
          fc.oneof(
            { weight: 8, arbitrary: endpoint.params.length ? fc.constantFrom(...endpoint.params) : fc.constant('x') },
            { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
          ),
          fc.array(
            fc.oneof(
              { weight: 4, arbitrary: typical },
              { weight: 2, arbitrary: anyText },
              { weight: 2, arbitrary: number },
              { weight: endpoint.cursorKinds.length ? 3 : 0, arbitrary: cursorFor(endpoint.cursorKinds) },
            ),
            { minLength: 1, maxLength: 3 },
          ),
        ),
        { maxLength: 6 },
      ),
      fc.option(fc.constantFrom('&%FF=1', '&q=%E0%A4%A', '&%=%', '&page_size=%31%30', '&&&', '&=', '&cursor=%ZZ'), { nil: '' }),
      // Often a cursor the service itself could have signed for this very flow.
      endpoint.cursorKinds.length ? fc.option(signedCursor(endpoint.cursorKinds), { nil: null, freq: 2 }) : fc.constant(null),
    ),
  )
  .map(([endpoint, params, raw, ownCursor]): FuzzRequest => {
    const query = new URLSearchParams();
    for (const [name, values] of params) for (const value of values) query.append(name, value);
    if (ownCursor !== null) query.append('cursor', ownCursor);
    return {
      path: endpoint.path,
      url: `${endpoint.path}?${query.toString()}${raw}`,
      // The raw tails' names as Koa decodes them ('%FF' is not UTF-8: the replacement character).
      sent: [...params.map(([name]) => name), ...(raw ? ['q', 'page_size', 'cursor', '\uFFFD', '%'] : []), ...endpoint.params],
    };
  });

// Not '.' or '..' (the client resolves them: /annonces/./map is /annonces/map), not empty (/annonces/map/ is the map).
const segment = fc
  .oneof(fc.constantFrom('seloger', 'pap', 'leboncoin', 'feed', 'map', 'x'.repeat(200), '%2F', '...', 'R1'), fc.string({ unit: 'grapheme', maxLength: 140 }))
  .filter((s) => s !== '' && s !== '.' && s !== '..');
const detailRequest = fc.tuple(segment, segment).map(
  ([source, reference]): FuzzRequest => ({
    path: '/annonces/:source/:reference',
    url: `/annonces/${encodeURIComponent(source)}/${encodeURIComponent(reference)}`,
    sent: ['source', 'reference'],
  }),
);

describe('fuzzed requests (fast-check): every answer JSON with the documented error shape, never a 500', function () {
  this.timeout(600_000);
  let app: TestApp;
  let key: string;
  const statuses = new Map<number, number>();
  let requests = 0;

  before(async () => {
    app = await startTestApp({ listings: makeListings({ count: 300, seed: 5 }), env: { CURSOR_SECRET: SECRET } });
    key = await app.newKey('sur_mesure');
  });
  after(async () => {
    await app?.close();
  });

  async function check(request: FuzzRequest): Promise<void> {
    const response = await fetch(app.base + request.url, { headers: { 'X-Api-Key': key } });
    const text = await response.text();
    requests++;
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    const where = `${response.status} ${request.url.slice(0, 300)} -> ${text.slice(0, 300)}`;
    expect(response.status, where).to.be.below(500);
    expect(response.headers.get('content-type'), where).to.match(/^application\/json/);
    const body = JSON.parse(text) as { error?: unknown; code?: unknown; details?: { field: unknown; message: unknown }[] };
    if (response.status < 400) return;
    expect(body.error, where).to.be.a('string');
    if (response.status === 404 && request.path === '/ptz/zone') return;
    expect(body.code, where).to.be.a('string');
    if (response.status !== 400) return;
    // A name the route does not take is named as unknown (docs/api.md "Unknown parameters").
    expect(body.code, where).to.be.oneOf(['BAD_REQUEST', 'UNKNOWN_PARAMETER']);
    expect(body.details, where).to.be.an('array').that.is.not.empty;
    for (const detail of body.details!) {
      expect(detail.message, where).to.be.a('string').that.is.not.empty;
      expect(request.sent, where).to.include(detail.field);
    }
  }

  it(`${RUNS} runs of ${REQUESTS_PER_RUN} concurrent requests`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof({ weight: 6, arbitrary: queryRequest }, { weight: 1, arbitrary: detailRequest }), {
          minLength: REQUESTS_PER_RUN,
          maxLength: REQUESTS_PER_RUN,
        }),
        async (batch) => {
          await Promise.all(batch.map(check));
        },
      ),
      { numRuns: RUNS, seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined },
    );
    const byStatus = Object.fromEntries([...statuses].sort(([a], [b]) => a - b));
    recordReliability('fuzz', {
      title: 'Fuzzed parameters of every endpoint (fast-check): hostile, repeated and non-UTF-8 values, signed cursors of any shape, arbitrary path parameters',
      test: 'test/reliability/fuzz.test.ts',
      cases: requests,
      unit: 'requests',
      result: `no 500, every body JSON with the documented error shape, every 400 naming fields that were sent (${Object.entries(byStatus)
        .map(([s, n]) => `${n} x ${s}`)
        .join(', ')})`,
      details: { by_status: byStatus },
    });
    expect(requests).to.be.at.least(RUNS * REQUESTS_PER_RUN);
  });
});
