/**
 * Over 300 lines on purpose: one suite of quota rules over one app, each case a few lines.
 * Offers, quotas and rate limits over HTTP (docs/api.md "Offers, quotas and headers", "Error codes"), on the
 * real app, with the embedded access backend and with Redis (when REDIS_URL is set). The clock is
 * injected: windows pass without sleeping. Accounts are created on 2020-01-01, so their billing
 * periods run from the 1st of each month.
 */
import { expect } from 'chai';
import type { TestApp } from '../../support/app.js';
import { describeEngines } from '../../support/engines.js';
import { NO_RATE_WINDOWS, offersWith, startQuotaApp, type AccessBackendName } from '../access/support/quota-app.js';
import { hasRedisServer, privateRedis, until, type PrivateRedis } from '../access/support/private-redis.js';

const NOW = Date.parse('2026-11-20T10:00:00Z');
const DAY = 86_400_000;
const BBOX = 'bbox=-90,-180,90,180';
const QUOTA_HEADERS = [
  'x-quota-items-limit',
  'x-quota-items-used',
  'x-quota-requests-limit',
  'x-quota-requests-used',
  'x-quota-mois-limit',
  'x-quota-mois-used',
  'x-quota-mois-remaining',
  'x-quota-mois-reset',
];

type Reply = Awaited<ReturnType<TestApp['get']>>;
const idsOf = (reply: Reply): string[] =>
  (reply.body.items ?? [reply.body.annonce]).map((a: { source: string; reference: string }) => `${a.source}:${a.reference}`);
const header = (reply: Reply, name: string) => reply.headers.get(name);

function expectQuotaHeaders(reply: Reply, expected: Record<string, string | null>): void {
  expect(reply.status, JSON.stringify(reply.body)).to.equal(200);
  const actual = Object.fromEntries(Object.keys(expected).map((name) => [name, header(reply, name)]));
  expect(actual).to.deep.equal(expected);
}

function expectNoQuotaHeaders(reply: Reply): void {
  for (const name of QUOTA_HEADERS) expect(header(reply, name), name).to.equal(null);
}

function backends(): { name: AccessBackendName; skip: string | null }[] {
  return [
    { name: 'sqlite', skip: null },
    { name: 'redis', skip: process.env.REDIS_URL ? null : 'REDIS_URL is not set' },
  ];
}

for (const backend of backends()) {
  describeEngines(`Quotas and rate limits over HTTP (${backend.name} access backend)`, function (engine) {
    const apps: TestApp[] = [];
    before(function () {
      if (backend.skip) {
        console.warn(`\n  !!! SKIPPING HTTP quota tests on ${backend.name}: ${backend.skip}\n`);
        this.skip();
      }
    });
    afterEach(async () => {
      await Promise.all(apps.splice(0).map((a) => a.close()));
    });

    async function start(offers = offersWith({}, NO_RATE_WINDOWS)): Promise<TestApp> {
      const app = await startQuotaApp(backend.name, offers, undefined, engine);
      app.clock.now = NOW;
      apps.push(app);
      return app;
    }

    it('sets every header of docs/api.md with values that match the counters after a known sequence', async function () {
      const app = await start();
      const key = await app.newKey('secteur');
      const seen = new Set<string>();
      let requests = 0;
      const step = async (path: string, countsRequest = true) => {
        const reply = await app.get(path, key);
        if (countsRequest && reply.status === 200) requests += 1;
        if (reply.status === 200 && (reply.body.items || reply.body.annonce) && !path.includes('/map')) idsOf(reply).forEach((id) => seen.add(id));
        return reply;
      };
      const counters = () => ({
        'x-quota-items-limit': '200',
        'x-quota-items-used': String(seen.size),
        'x-quota-requests-limit': '600',
        'x-quota-requests-used': String(requests),
        'x-quota-mois-limit': '1000',
        'x-quota-mois-used': String(seen.size),
        'x-quota-mois-remaining': String(1000 - seen.size),
        'x-quota-mois-reset': '2026-12-01T00:00:00.000Z',
      });

      const first = await step('/annonces?page_size=10');
      expectQuotaHeaders(first, { ...counters(), 'x-ratelimit-limit': '10000', 'x-ratelimit-remaining': '9999', 'x-annonces-from': '2020-01-01' });
      expect(Number(header(first, 'x-ratelimit-reset'))).to.be.within(Math.floor(Date.now() / 1000), Math.ceil(Date.now() / 1000) + 60);
      expect(seen.size).to.equal(10);
      // The same page again costs a request, no listing.
      expectQuotaHeaders(await step('/annonces?page_size=10'), counters());
      expectQuotaHeaders(await step('/annonces?page_size=10&page=2'), counters());
      expect(seen.size).to.equal(20);
      // Map points are free.
      const map = await step(`/annonces/map?${BBOX}`);
      expect(map.body.items.length).to.be.greaterThan(20);
      expectQuotaHeaders(map, counters());
      // The detail costs one listing, nothing when already received.
      const [known] = idsOf(first);
      expectQuotaHeaders(await step(`/annonces/${known.replace(':', '/')}`), counters());
      const page3 = await app.get('/annonces?page_size=10&page=3', key);
      requests += 1;
      const fresh = idsOf(page3).find((id) => !seen.has(id))!;
      idsOf(page3).forEach((id) => seen.add(id));
      expectQuotaHeaders(await step(`/annonces/${fresh.replace(':', '/')}`), counters());
      expect(seen.size).to.equal(30);
      // Feed and withdrawn listings count what they deliver that was not received before.
      expectQuotaHeaders(await step('/annonces/feed?page_size=15'), counters());
      const withdrawn = await step('/annonces/retirees?page_size=5');
      expect(withdrawn.body.items).to.have.length(5);
      expectQuotaHeaders(withdrawn, counters());
      // /ping costs nothing; a PTZ lookup costs a request only when it succeeds.
      expect((await step('/ping', false)).status).to.equal(200);
      expect((await step('/ptz/zone?cp=00000', false)).status).to.equal(404);
      expect((await step('/ptz/zone?cp=7500', false)).status).to.equal(400);
      expectQuotaHeaders(await step('/ptz/zone?cp=75001'), counters());
      expectQuotaHeaders(await step('/annonces?page_size=1'), counters());
      expect(requests).to.equal(11);
    });

    it('free offer: serves the crossing page whole, then 402 ITEMS_QUOTA on every listing endpoint while /ping answers', async function () {
      const app = await start();
      const key = await app.newKey('decouverte');
      const pages: Reply[] = [];
      for (let page = 1; page <= 3; page++) {
        pages.push(await app.get(`/annonces?page_size=20&page=${page}`, key));
        app.clock.now += 60_000;
      }
      expectQuotaHeaders(pages[2], { 'x-quota-mois-limit': '50', 'x-quota-mois-used': '60', 'x-quota-mois-remaining': '0', 'x-quota-mois-reset': null });
      const refused = await app.get('/annonces?page_size=20&page=4', key);
      expect(refused.status).to.equal(402);
      expect(refused.body).to.deep.equal({
        error: refused.body.error,
        code: 'ITEMS_QUOTA',
        quota: 50,
        consomme: 60,
        se_libere_le: new Date(NOW + 30 * DAY).toISOString(),
        palier_suivant: { offre: 'secteur', annonces_par_mois: 1000 },
      });
      expect(refused.body.error).to.be.a('string').and.match(/50/);
      const [known] = idsOf(pages[0]);
      for (const path of ['/annonces?page_size=20', '/annonces/feed', '/annonces/retirees', `/annonces/map?${BBOX}`, `/annonces/${known.replace(':', '/')}`]) {
        const reply = await app.get(path, key);
        expect(reply.status, path).to.equal(402);
        expect(reply.body.code, path).to.equal('ITEMS_QUOTA');
      }
      const ping = await app.get('/ping', key);
      expect(ping.status).to.equal(200);
      expect(ping.body).to.include({ ok: true, tier: 'decouverte', items_per_day: 200 });
      // 30 days after the first page, its 20 listings leave the rolling window: receiving 5 of them
      // again counts them again.
      app.clock.now = NOW + 30 * DAY;
      const again = await app.get('/annonces?page_size=5', key);
      expectQuotaHeaders(again, { 'x-quota-mois-used': '45', 'x-quota-mois-remaining': '5' });
    });

    it('subscription: ITEMS_QUOTA names the reset date of the billing period and the next offer', async function () {
      const app = await start(offersWith({ secteur: { itemsPerMonth: 25 } }, NO_RATE_WINDOWS));
      const key = await app.newKey('secteur');
      await app.get('/annonces?page_size=20', key);
      const crossing = await app.get('/annonces?page_size=20&page=2', key);
      expectQuotaHeaders(crossing, { 'x-quota-mois-used': '40', 'x-quota-mois-remaining': '0', 'x-quota-mois-reset': '2026-12-01T00:00:00.000Z' });
      const refused = await app.get('/annonces?page_size=20&page=3', key);
      expect(refused.status).to.equal(402);
      expect(refused.body).to.include({ code: 'ITEMS_QUOTA', quota: 25, consomme: 40, repart_le: '2026-12-01T00:00:00.000Z' });
      expect(refused.body).to.not.have.property('se_libere_le');
      expect(refused.body.palier_suivant).to.deep.equal({ offre: 'ville', annonces_par_mois: 5000 });
      app.clock.now = Date.parse('2026-12-01T00:00:00Z');
      expectQuotaHeaders(await app.get('/annonces?page_size=20', key), { 'x-quota-mois-used': '20', 'x-quota-mois-reset': '2027-01-01T00:00:00.000Z' });
    });

    it('legacy account: daily cap only, no X-Quota-Mois-*, 402 QUOTA_EXCEEDED until the 24 hours pass', async function () {
      const app = await start(offersWith({ legacy: { itemsPerDay: 15 } }, NO_RATE_WINDOWS));
      const key = await app.newKey('legacy');
      const first = await app.get('/annonces?page_size=10', key);
      expectQuotaHeaders(first, {
        'x-quota-items-limit': '15',
        'x-quota-items-used': '10',
        'x-quota-requests-limit': '6000',
        'x-quota-requests-used': '1',
        'x-quota-mois-limit': null,
        'x-quota-mois-used': null,
        'x-quota-mois-remaining': null,
        'x-quota-mois-reset': null,
      });
      app.clock.now += 3_600_000;
      await app.get('/annonces?page_size=10&page=2', key);
      const refused = await app.get('/annonces?page_size=10&page=3', key);
      expect(refused.status).to.equal(402);
      expect(refused.body).to.deep.equal({
        error: refused.body.error,
        code: 'QUOTA_EXCEEDED',
        quota: 15,
        consomme: 20,
        se_libere_le: new Date(NOW + DAY).toISOString(),
      });
      app.clock.now = NOW + DAY;
      expectQuotaHeaders(await app.get('/annonces?page_size=10&page=3', key), { 'x-quota-items-used': '20' });
    });

    it('daily request cap: 429 RATE_LIMIT_PER_DAY until midnight UTC, without quota counters', async function () {
      const app = await start(offersWith({ secteur: { requestsPerDay: 3 } }, NO_RATE_WINDOWS));
      const key = await app.newKey('secteur');
      for (let i = 0; i < 3; i++) expect((await app.get(`/annonces/map?${BBOX}`, key)).status).to.equal(200);
      const refused = await app.get('/annonces?page_size=1', key);
      const untilMidnight = (Date.parse('2026-11-21T00:00:00Z') - NOW) / 1000;
      expect(refused.status).to.equal(429);
      expect(refused.body).to.deep.equal({ error: refused.body.error, code: 'RATE_LIMIT_PER_DAY', retry_after_seconds: untilMidnight });
      expect(header(refused, 'retry-after')).to.equal(String(untilMidnight));
      expect(header(refused, 'x-annonces-from')).to.equal('2020-01-01');
      expectNoQuotaHeaders(refused);
      expect((await app.get('/ping', key)).status).to.equal(200);
      app.clock.now = Date.parse('2026-11-21T00:00:00Z');
      expectQuotaHeaders(await app.get('/annonces?page_size=1', key), { 'x-quota-requests-used': '1' });
    });

    it('per-second limit: 429 RATE_LIMIT_PER_SEC with Retry-After and X-Annonces-From, without quota counters', async function () {
      const app = await start(offersWith());
      const key = await app.newKey('secteur');
      const replies = await Promise.all([1, 2, 3].map(() => app.get(`/annonces/map?${BBOX}`, key)));
      expect(replies.map((r) => r.status).sort()).to.deep.equal([200, 429, 429]);
      const refused = replies.find((r) => r.status === 429)!;
      expect(refused.body).to.deep.equal({ error: refused.body.error, code: 'RATE_LIMIT_PER_SEC', retry_after_seconds: 1 });
      expect(header(refused, 'retry-after')).to.equal('1');
      expect(header(refused, 'x-annonces-from')).to.equal('2020-01-01');
      // Nothing remains until the second passes: X-RateLimit-Reset names that second.
      expect(header(refused, 'x-ratelimit-limit')).to.equal('60');
      expect(header(refused, 'x-ratelimit-remaining')).to.equal('0');
      expect(Number(header(refused, 'x-ratelimit-reset'))).to.be.within(Math.floor(Date.now() / 1000), Math.ceil(Date.now() / 1000) + 1);
      expectNoQuotaHeaders(refused);
    });

    it('per-minute limit: 429 RATE_LIMIT_PER_MIN', async function () {
      const app = await start(offersWith({ secteur: { perSecond: 100, perMinute: 2 } }));
      const key = await app.newKey('secteur');
      expect((await app.get(`/annonces/map?${BBOX}`, key)).status).to.equal(200);
      const second = await app.get(`/annonces/map?${BBOX}`, key);
      expect(header(second, 'x-ratelimit-remaining')).to.equal('0');
      const refused = await app.get(`/annonces/map?${BBOX}`, key);
      expect(refused.status).to.equal(429);
      expect(refused.body.code).to.equal('RATE_LIMIT_PER_MIN');
      expect(refused.body.retry_after_seconds).to.be.within(1, 60);
      expect(header(refused, 'retry-after')).to.equal(String(refused.body.retry_after_seconds));
      expect(header(refused, 'x-ratelimit-limit')).to.equal('2');
      expect(header(refused, 'x-ratelimit-remaining')).to.equal('0');
      // The reset is the moment Retry-After names (both rounded up to the second), within a minute of the first request.
      const reset = Number(header(refused, 'x-ratelimit-reset'));
      expect(reset).to.equal(Number(header(second, 'x-ratelimit-reset')));
      expect(reset - Date.now() / 1000).to.be.within(refused.body.retry_after_seconds - 2, refused.body.retry_after_seconds + 1);
      expectNoQuotaHeaders(refused);
    });

    it('/ping reports the rate and quota headers without taking from them, and answers past the limits', async function () {
      const app = await start(offersWith({ secteur: { perSecond: 100, perMinute: 3 } }));
      const key = await app.newKey('secteur');
      const fresh = await app.get('/ping', key);
      expectQuotaHeaders(fresh, {
        'x-ratelimit-limit': '3',
        'x-ratelimit-remaining': '3',
        'x-quota-items-used': '0',
        'x-quota-requests-used': '0',
        'x-quota-mois-limit': '1000',
      });
      const page = await app.get('/annonces?page_size=4', key);
      const after = await app.get('/ping', key);
      expectQuotaHeaders(after, {
        'x-ratelimit-limit': '3',
        'x-ratelimit-remaining': '2',
        'x-ratelimit-reset': header(page, 'x-ratelimit-reset'),
        'x-quota-items-used': '4',
        'x-quota-requests-used': '1',
        'x-quota-mois-used': '4',
        'x-quota-mois-remaining': '996',
      });
      await app.get('/annonces?page_size=1', key);
      await app.get('/annonces?page_size=1', key);
      expect((await app.get('/annonces?page_size=1', key)).status).to.equal(429);
      const limited = await app.get('/ping', key);
      expectQuotaHeaders(limited, { 'x-ratelimit-remaining': '0', 'x-quota-requests-used': '3' });
    });

    it('past the listing quota every keyed endpoint but /ping answers 402: /sources, /ptz/zone, /stats, the map', async function () {
      const app = await start(offersWith({ departement: { itemsPerMonth: 5, itemsPerDay: 200 } }, NO_RATE_WINDOWS));
      const key = await app.newKey('departement');
      for (const path of ['/sources', '/ptz/zone?cp=75001', '/stats?dept=75']) expect((await app.get(path, key)).status, path).to.equal(200);
      expectQuotaHeaders(await app.get('/annonces?page_size=10', key), { 'x-quota-mois-used': '10', 'x-quota-mois-remaining': '0' });
      for (const path of ['/sources', '/ptz/zone?cp=75001', '/stats?dept=75', `/annonces/map?${BBOX}`, '/annonces/feed']) {
        const reply = await app.get(path, key);
        expect(reply.status, path).to.equal(402);
        expect(reply.body.code, path).to.equal('ITEMS_QUOTA');
      }
      const ping = await app.get('/ping', key);
      expectQuotaHeaders(ping, { 'x-quota-mois-used': '10', 'x-quota-mois-remaining': '0', 'x-quota-requests-used': '4' });
    });

    it('site filters and /sources below 118,80 EUR TTC: 402 PAID_PLAN_REQUIRED', async function () {
      const app = await start();
      const cheap = await app.newKey('ville');
      for (const path of [
        '/sources',
        '/annonces?sources=seloger',
        '/annonces?exclude_sources=pap',
        '/annonces/feed?sources=seloger',
        `/annonces/map?${BBOX}&exclude_sources=pap`,
        '/annonces/retirees?sources=pap',
      ]) {
        const reply = await app.get(path, cheap);
        expect(reply.status, path).to.equal(402);
        expect(reply.body.code, path).to.equal('PAID_PLAN_REQUIRED');
      }
      const paid = await app.newKey('departement');
      expect((await app.get('/sources', paid)).status).to.equal(200);
      expect((await app.get('/annonces?sources=seloger', paid)).status).to.equal(200);
    });
  });
}

describe('Redis outage (a private redis-server, stopped and started again)', function () {
  let redis: PrivateRedis;
  let app: TestApp;

  before(async function () {
    if (!hasRedisServer()) {
      console.warn('\n  !!! SKIPPING the Redis outage test: redis-server is not installed\n');
      this.skip();
    }
    redis = await privateRedis();
    app = await startQuotaApp('redis', offersWith({}, NO_RATE_WINDOWS), redis.url);
    app.clock.now = NOW;
  });
  after(async () => {
    await app?.close();
    await redis?.dispose();
  });

  it('answers 503 SERVICE_UNAVAILABLE (never 500, never unmetered), reports degraded, and recovers by itself', async function () {
    const key = await app.newKey('secteur');
    const before = await app.get('/annonces?page_size=10', key);
    expectQuotaHeaders(before, { 'x-quota-mois-used': '10' });
    expect((await app.get('/health')).body.checks.access.ok).to.equal(true);

    await redis.stop();
    for (const path of ['/annonces?page_size=10', '/annonces/feed', '/annonces/retirees', `/annonces/map?${BBOX}`, '/ptz/zone?cp=75001', '/ping']) {
      const started = Date.now();
      const reply = await app.get(path, key);
      expect(reply.status, path).to.equal(503);
      expect(reply.body.code, path).to.equal('SERVICE_UNAVAILABLE');
      expect(reply.body.error, path).to.match(/access store is temporarily unavailable/);
      expect(header(reply, 'retry-after'), path).to.not.equal(null);
      expect(Date.now() - started, `${path} fails fast`).to.be.below(1500);
    }
    const health = await app.get('/health');
    expect(health.status).to.equal(503);
    expect(health.body.status).to.equal('degraded');
    expect(health.body.checks.access).to.include({ ok: false, backend: 'redis' });

    await redis.start();
    await until(async () => (await app.get('/health')).status === 200, 'the service to recover');
    // The counters survived: the same page costs nothing, the next one counts.
    expectQuotaHeaders(await app.get('/annonces?page_size=10', key), { 'x-quota-mois-used': '10', 'x-quota-requests-used': '2' });
    expectQuotaHeaders(await app.get('/annonces?page_size=10&page=2', key), { 'x-quota-mois-used': '20' });
  });
});
