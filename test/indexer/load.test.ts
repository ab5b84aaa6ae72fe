/** The indexer's load: rejects, idempotence, entry dates, status, gzip input, through the real pipeline. */
import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BATCH_SIZE, BatchPipeline, runLoad } from '../../indexer/load.js';
import { loadSites } from '../../src/core/model/sites.js';
import { loadCommunes } from '../../src/core/refdata/communes.js';
import { SqliteListingStore } from '../../src/adapters/sqlite-listings/listing-store.js';
import { rawRecord, writeNdjson } from '../support/raw.js';

describe('indexer load', function () {
  this.timeout(30_000);
  const sites = loadSites();
  const communes = loadCommunes();
  let dir: string;
  let store: SqliteListingStore;
  let wallClock: number;
  const load = (files: string[], rejectsFile?: string) => {
    wallClock += 60_000;
    return runLoad({ files, store, sites, communes, rejectsFile, now: () => wallClock });
  };

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'load-'));
    store = new SqliteListingStore(path.join(dir, 'l.sqlite'));
    wallClock = Date.parse('2026-11-15T00:00:00Z');
  });
  afterEach(async () => {
    await store.close();
  });

  it('rejects bad records with their line number and reason, and goes on', async () => {
    const file = writeNdjson(
      [
        rawRecord(1),
        '{not json',
        { ...rawRecord(2), source: 'unknown-site' },
        { ...rawRecord(3), reference: undefined },
        { ...rawRecord(4), collected_at: '2030-01-01T00:00:00Z' },
        { ...rawRecord(5), collected_at: 'hier' },
        rawRecord(6),
      ],
      'in.ndjson',
      dir,
    );
    const rejectsFile = path.join(dir, 'rejects.ndjson');
    const report = await load([file], rejectsFile);
    expect(report).to.include({ read: 7, written: 2, rejected: 5, unchanged: 0 });
    const rejects = readFileSync(rejectsFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rejects.map((r) => r.line)).to.deep.equal([2, 3, 4, 5, 6]);
    expect(rejects[0].reason).to.match(/JSON/);
    expect(rejects[1].reason).to.match(/unknown site "unknown-site"/);
    expect(rejects[2].reason).to.match(/reference/);
    expect(rejects[3].reason).to.match(/future/);
    expect(rejects[4].field).to.equal('collected_at');
    expect(rejects.every((r) => r.file === file)).to.equal(true);
  });

  it('loading the same file twice changes nothing and reports unchanged', async () => {
    const file = writeNdjson(
      Array.from({ length: 30 }, (_, i) => rawRecord(i)),
      'in.ndjson',
      dir,
    );
    const first = await load([file]);
    const before = await store.getMany(Array.from({ length: 30 }, (_, i) => `${rawRecord(i).source}:R${i}`));
    const second = await load([file]);
    expect(first).to.include({ written: 30, unchanged: 0 });
    expect(second).to.include({ written: 0, unchanged: 30 });
    const after = await store.getMany([...before.keys()]);
    expect([...after.values()]).to.deep.equal([...before.values()]);
  });

  it('reads gzip input', async () => {
    const file = path.join(dir, 'in.ndjson.gz');
    writeFileSync(file, gzipSync(Array.from({ length: 5 }, (_, i) => JSON.stringify(rawRecord(i))).join('\n')));
    expect((await load([file])).written).to.equal(5);
  });

  it('catalogue_entered_at is the first collection and never moves; updated_at follows the latest pass', async () => {
    await load([writeNdjson([rawRecord(1, { collected_at: '2026-10-01T00:00:00Z' })], 'a.ndjson', dir)]);
    await load([writeNdjson([rawRecord(1, { collected_at: '2026-11-01T00:00:00Z', price: '190 000 €' })], 'b.ndjson', dir)]);
    // An older pass arriving late (a backfill) changes nothing.
    const stale = await load([writeNdjson([rawRecord(1, { collected_at: '2026-09-01T00:00:00Z' })], 'c.ndjson', dir)]);
    expect(stale.stale).to.equal(1);
    const listing = (await store.get(`${rawRecord(1).source}:R1`))!;
    expect(new Date(listing.catalogue_entered_at).toISOString()).to.equal('2026-10-01T00:00:00.000Z');
    expect(new Date(listing.updated_at).toISOString()).to.equal('2026-11-01T00:00:00.000Z');
    expect(listing.content.price).to.equal(190000);
    expect(listing.price_points.map((p) => p.price)).to.deep.equal([201000, 190000]);
  });

  it('a re-collection with the same content moves updated_at but not changed_at', async () => {
    await load([writeNdjson([rawRecord(1, { collected_at: '2026-10-01T00:00:00Z' })], 'a.ndjson', dir)]);
    const first = (await store.get(`${rawRecord(1).source}:R1`))!;
    await load([writeNdjson([rawRecord(1, { collected_at: '2026-10-02T00:00:00Z' })], 'b.ndjson', dir)]);
    const second = (await store.get(first.id))!;
    expect(second.updated_at).to.be.greaterThan(first.updated_at);
    expect([second.changed_at, second.change_seq]).to.deep.equal([first.changed_at, first.change_seq]);
  });

  it('applies statuses: leaving the market records when, coming back clears it', async () => {
    const id = `${rawRecord(1).source}:R1`;
    await load([writeNdjson([rawRecord(1, { collected_at: '2026-10-01T00:00:00Z' })], 'a.ndjson', dir)]);
    await load([writeNdjson([rawRecord(1, { collected_at: '2026-10-05T00:00:00Z', status: 'Sous compromis' })], 'b.ndjson', dir)]);
    const left = (await store.get(id))!;
    expect([left.status, new Date(left.left_market_at!).toISOString()]).to.deep.equal(['sous_compromis', '2026-10-05T00:00:00.000Z']);
    await load([writeNdjson([rawRecord(1, { collected_at: '2026-10-09T00:00:00Z', status: 'active' })], 'c.ndjson', dir)]);
    const back = (await store.get(id))!;
    expect([back.status, back.left_market_at]).to.deep.equal(['active', null]);
  });

  it('stores no contact data: phones and e-mails redacted, contact fields dropped, private seller without name', async () => {
    await load([
      writeNdjson(
        [
          rawRecord(1, {
            description: 'Appelez le 06 12 34 56 78 ou écrivez à jean.dupont@gmail.com',
            seller_phone: '0612345678',
            seller_email: 'jean.dupont@gmail.com',
            seller_type: 'particulier',
            seller_name: 'Jean Dupont',
            latitude: 48.8566123,
            longitude: 2.3522219,
          }),
        ],
        'a.ndjson',
        dir,
      ),
    ]);
    const row = store.database.prepare('SELECT * FROM listings').get() as Record<string, string>;
    const everything = JSON.stringify(row);
    expect(everything).not.to.match(/06 12 34 56 78|0612345678|jean\.dupont|Jean Dupont/);
    const listing = (await store.get(`${rawRecord(1).source}:R1`))!;
    expect(listing.content.seller_name).to.equal(null);
    expect([listing.content.latitude, listing.content.longitude]).to.deep.equal([48.857, 2.352]);
  });

  it('a document the backend refuses goes to the rejects file with the backend reason', async () => {
    const refusing = Object.create(store) as SqliteListingStore;
    refusing.upsertMany = async (listings) => {
      await store.upsertMany(listings.filter((l) => !l.id.endsWith(':R2')));
      return listings.filter((l) => l.id.endsWith(':R2')).map((l) => ({ id: l.id, reason: 'mapper_parsing_exception: bad value' }));
    };
    const rejectsFile = path.join(dir, 'rejects.ndjson');
    wallClock += 60_000;
    const report = await runLoad({
      files: [writeNdjson([rawRecord(1), rawRecord(2), rawRecord(3)], 'in.ndjson', dir)],
      store: refusing,
      sites,
      communes,
      rejectsFile,
      now: () => wallClock,
    });
    expect(report).to.include({ written: 2, rejected: 1 });
    const rejects = readFileSync(rejectsFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rejects.map((r) => [r.line, r.reason])).to.deep.equal([[2, 'mapper_parsing_exception: bad value']]);
  });

  it('reads and normalises the next batch while the previous one is written, and merges each against what the previous wrote', async () => {
    // Every record read asks the clock once (a record from the future is refused): the clock counts them.
    let recordsRead = 0;
    const events: string[] = [];
    const slow = Object.create(store) as SqliteListingStore;
    let writes = 0;
    slow.upsertMany = async (listings) => {
      const batch = ++writes;
      if (batch === 1) {
        // The first batch's write ends only once the second batch has been read meanwhile.
        const until = Date.now() + 10_000;
        while (recordsRead < 2 * BATCH_SIZE && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
        events.push(recordsRead >= 2 * BATCH_SIZE ? 'batch 2 read while batch 1 was written' : `only ${recordsRead} records read while batch 1 was written`);
      }
      const failures = await store.upsertMany(listings);
      events.push(`batch ${batch} written`);
      return failures;
    };
    slow.getMany = async (ids) => {
      events.push(`batch ${writes + 1} merged`);
      return store.getMany(ids);
    };
    // The second batch changes every listing of the first: its merge must see the first batch stored.
    const first = Array.from({ length: BATCH_SIZE }, (_, i) => rawRecord(i, { reference: `P${i}`, price: '100 000 €' }));
    const second = Array.from({ length: BATCH_SIZE }, (_, i) => rawRecord(i, { reference: `P${i}`, price: '90 000 €', collected_at: '2026-11-02T10:00:00Z' }));
    wallClock += 60_000;
    const report = await runLoad({
      files: [writeNdjson([...first, ...second], 'in.ndjson', dir)],
      store: slow,
      sites,
      communes,
      now: () => {
        recordsRead++;
        return wallClock;
      },
    });
    expect(events.slice(0, 4)).to.deep.equal(['batch 1 merged', 'batch 2 read while batch 1 was written', 'batch 1 written', 'batch 2 merged']);
    expect(report).to.include({ read: 2 * BATCH_SIZE, written: 2 * BATCH_SIZE });
    const listing = (await store.getMany([`${first[0].source}:P0`])).get(`${first[0].source}:P0`)!;
    expect(listing.price_points.map((p) => p.price)).to.deep.equal([100_000, 90_000]);
  });

  it('a batch pipeline writes one batch at a time, in order, and a failed write surfaces at the next step', async () => {
    const log: string[] = [];
    let release: () => void = () => {};
    const pipeline = new BatchPipeline<number>(async (batch) => {
      log.push(`start ${batch[0]}`);
      if (batch[0] === 1) await new Promise<void>((resolve) => (release = resolve));
      if (batch[0] === 3) throw new Error('refused');
      log.push(`end ${batch[0]}`);
    });
    await pipeline.next([1]);
    // next() returned while batch 1 is still being written: the caller reads on.
    expect(log).to.deep.equal(['start 1']);
    const second = pipeline.next([2]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log).to.deep.equal(['start 1']);
    release();
    await second;
    await pipeline.next([3]);
    let failure: unknown = null;
    await pipeline.drain().catch((error) => (failure = error));
    expect(log).to.deep.equal(['start 1', 'end 1', 'start 2', 'end 2', 'start 3']);
    expect((failure as Error).message).to.equal('refused');
  });
});
