/**
 * The typed client (client/) against the real app: typed calls, a search walked by cursor, the two
 * flows followed with their pause, Retry-After on 429, the resumption date on 402 without looping,
 * X-Unknown-Sources. Its waits go through an injected sleep that moves the app's clock.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { AnnoncesClient, DEFAULT_POLL_INTERVAL_MS, QuotaError, RetryLaterError, type AnnoncesClientOptions, type FeedBatch } from '../../client/index.js';
import { clientDocument } from '../../client/document.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEngines } from '../support/engines.js';
import { makeListings } from '../support/fixtures.js';
import { NO_RATE_WINDOWS, offersWith } from '../api/access/support/quota-app.js';
import type { StoredListing } from '../../src/core/model/stored.js';
import { StoreUnavailableError } from '../../src/core/ports/store-unavailable.js';
import type { ListingStore } from '../../src/core/ports/listing-store.js';

const keyOf = (a: { source: string; reference: string }) => `${a.source}/${a.reference}`;

describeEngines('typed client', function (engine) {
  const all = makeListings({ count: 81, seed: 31 });
  const [late, listings] = [all[all.length - 1], all.slice(0, -1)];
  let app: TestApp;
  let sleeps: number[];
  let requests: number;

  /** A client whose sleep moves the app's clock instead of waiting, and whose requests are counted. */
  function clientFor(apiKey: string, options: Partial<AnnoncesClientOptions> = {}): AnnoncesClient {
    return new AnnoncesClient({
      baseUrl: app.base,
      apiKey,
      now: () => app.clock.now,
      fetch: (input, init) => {
        requests += 1;
        return fetch(input, init);
      },
      sleep: async (ms) => {
        sleeps.push(ms);
        app.clock.now += ms;
      },
      ...options,
    });
  }

  before(async () => {
    app = await startTestApp({
      listings,
      engine,
      deps: { offers: offersWith({ secteur: { requestsPerDay: 2 }, decouverte: { itemsPerMonth: 3, siteFilters: true } }, NO_RATE_WINDOWS) },
    });
  });
  beforeEach(() => {
    sleeps = [];
    requests = 0;
  });
  after(async () => {
    await app.close();
  });

  it('is typed from the current OpenAPI document (npm run client:types)', async () => {
    const served = (await app.get('/openapi.json')).body;
    const committed = JSON.parse(readFileSync(new URL('../../client/openapi.json', import.meta.url), 'utf8'));
    expect(committed).to.deep.equal(clientDocument(served));
  });

  it('makes typed calls and reports X-Unknown-Sources', async () => {
    const reported: string[][] = [];
    const client = clientFor(await app.newKey('sur_mesure'), { onUnknownSources: (names) => reported.push(names) });
    expect((await client.ping()).data.ok).to.equal(true);
    expect((await client.ptzZone('75001')).data.zone).to.equal('Abis');
    const active = listings.find((l) => l.status === 'active')!;
    expect(keyOf((await client.listing(active.content.source, active.content.reference)).data.annonce)).to.equal(keyOf(active.content));
    expect((await client.map({ bbox: '-90,-180,90,180' })).data.bbox).to.deep.equal({ south: -90, west: -180, north: 90, east: 180 });
    const filtered = await client.search({ sources: 'seloger,nowhere,elsewhere', dpe: ['A', 'B'] });
    expect(filtered.unknownSources).to.deep.equal(['nowhere', 'elsewhere']);
    expect(reported).to.deep.equal([['nowhere', 'elsewhere']]);
    expect(filtered.data.items.every((a) => a.source === 'seloger' && ['A', 'B'].includes(a.dpe ?? ''))).to.equal(true);
  });

  it('walks a search by cursor to its end', async () => {
    const client = clientFor(await app.newKey('sur_mesure'));
    const everything = (await client.search({ dedup: '0', page_size: 100 })).data.items.map(keyOf);
    const walked: string[] = [];
    for await (const annonce of client.searchAll({ dedup: '0', page_size: 7 })) walked.push(keyOf(annonce));
    expect(walked.length).to.be.above(7);
    expect(walked).to.deep.equal(everything);
  });

  it('follows the feed forever: every listing, the recommended pause when up to date, then what arrives', async () => {
    const key = await app.newKey('sur_mesure');
    const abort = new AbortController();
    const arrived: StoredListing = {
      ...late,
      status: 'active',
      left_market_at: null,
      has_photos: true,
      changed_at: app.clock.now + 1_000,
      change_seq: 1_000_000,
    };
    const seen: string[] = [];
    let pauses = 0;
    const follower = clientFor(key, {
      sleep: async (ms) => {
        sleeps.push(ms);
        app.clock.now += ms;
        pauses += 1;
        if (pauses === 1) await app.service.listingStore.upsertMany([arrived]);
        if (pauses === 2) abort.abort();
      },
    });
    const batches: FeedBatch[] = [];
    for await (const batch of follower.followFeed({ page_size: 25 }, { signal: abort.signal })) {
      batches.push(batch);
      seen.push(...batch.items.map(keyOf));
    }
    const expected = [...listings.filter((l) => l.status === 'active').sort((a, b) => a.changed_at - b.changed_at), arrived].map((l) => keyOf(l.content));
    expect(seen).to.deep.equal(expected);
    expect(sleeps).to.deep.equal([DEFAULT_POLL_INTERVAL_MS, DEFAULT_POLL_INTERVAL_MS]);
    expect(batches.at(-1)!.items.map(keyOf)).to.deep.equal([keyOf(arrived.content)]);
  });

  it('follows the withdrawn flow and resumes from a saved cursor', async () => {
    const key = await app.newKey('sur_mesure');
    const client = clientFor(key);
    const withdrawn = listings
      .filter((l) => l.status !== 'active')
      .map((l) => keyOf(l.content))
      .sort();
    const first = await client.withdrawn({ page_size: 3 });
    const abort = new AbortController();
    const rest: string[] = [];
    const follower = clientFor(key, {
      sleep: async (ms) => {
        sleeps.push(ms);
        abort.abort();
      },
    });
    for await (const batch of follower.followWithdrawn({ page_size: 3 }, { cursor: first.data.next_cursor!, signal: abort.signal })) {
      expect(batch.items.every((a) => ['retiree', 'vendue', 'sous_compromis', 'archivee'].includes(a.reason))).to.equal(true);
      rest.push(...batch.items.map(keyOf));
    }
    expect([...first.data.items.map(keyOf), ...rest].sort()).to.deep.equal(withdrawn);
    expect(sleeps).to.deep.equal([DEFAULT_POLL_INTERVAL_MS]);
  });

  it('429 with a long Retry-After: a single call throws at once, a follower waits exactly that long', async () => {
    const key = await app.newKey('secteur');
    const client = clientFor(key);
    await client.search();
    await client.search();
    const refused = await client.search().catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(RetryLaterError);
    const retryAfter = (refused as RetryLaterError).retryAfterSeconds;
    expect(retryAfter).to.be.above(60);
    expect(sleeps).to.deep.equal([]);
    const abort = new AbortController();
    for await (const batch of clientFor(key).followFeed({}, { signal: abort.signal })) {
      expect(batch.items.length).to.be.above(0);
      abort.abort();
    }
    expect(sleeps).to.deep.equal([retryAfter * 1000]);
  });

  it('503 while the store is down: a follower retries the same cursor after Retry-After, without limit', async () => {
    const store = app.service.deps.listings;
    let failures = 0;
    // The feed fails for six requests of a single call (one and five retries), then seven more times.
    const feed = (...args: Parameters<ListingStore['feed']>) => (++failures <= 13 ? Promise.reject(new StoreUnavailableError('test')) : store.feed(...args));
    const flaky = new Proxy(store, {
      get: (target, property) => (property === 'feed' ? feed : Reflect.get(target, property, target)),
    });
    app.service.deps.listings = flaky;
    try {
      const key = await app.newKey('sur_mesure');
      const single = await clientFor(key)
        .feed()
        .catch((error: unknown) => error);
      expect(single).to.be.instanceOf(RetryLaterError);
      expect((single as RetryLaterError).status).to.equal(503);
      expect(sleeps).to.deep.equal([5000, 5000, 5000, 5000, 5000]);
      sleeps = [];
      const abort = new AbortController();
      for await (const batch of clientFor(key).followFeed({}, { signal: abort.signal })) {
        expect(batch.items.length).to.be.above(0);
        abort.abort();
      }
      expect(sleeps).to.deep.equal(Array(7).fill(5000));
    } finally {
      app.service.deps.listings = store;
    }
  });

  it('402 with a resumption date: a single call throws it without retrying, a follower sleeps until it once', async () => {
    const key = await app.newKey('decouverte');
    const client = clientFor(key);
    const walked: string[] = [];
    const refused = await (async () => {
      for await (const annonce of client.searchAll({ page_size: 2 })) walked.push(keyOf(annonce));
    })().catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(QuotaError);
    expect((refused as QuotaError).code).to.equal('ITEMS_QUOTA');
    const resumesAt = (refused as QuotaError).resumesAt!;
    expect(resumesAt.getTime()).to.be.above(app.clock.now);
    expect([walked.length, requests, sleeps.length]).to.deep.equal([4, 3, 0]);

    const paid = await client.search({ sources: 'seloger' }).catch((error: unknown) => error);
    expect((paid as QuotaError).code).to.equal('ITEMS_QUOTA');

    const abort = new AbortController();
    const follower = clientFor(key);
    requests = 0;
    for await (const batch of follower.followFeed({ page_size: 2 }, { signal: abort.signal })) {
      expect(batch.items.length).to.be.above(0);
      abort.abort();
    }
    expect(sleeps.length).to.equal(1);
    expect(app.clock.now).to.be.above(resumesAt.getTime());
    expect(requests).to.equal(2);
  });
});
