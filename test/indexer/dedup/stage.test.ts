/**
 * Over 300 lines on purpose: one suite whose cases share the load, store and lookup helpers, each
 * case a short sequence of loads into a fresh store.
 *
 * DedupGrouping through the real load pipeline (runLoad -> SQLite): incremental grouping, stable keys,
 * members leaving, groups splitting, same-site refusal, completion, feed redelivery, and the rebuild
 * giving the groups the loads gave.
 */
import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runLoad, type LoadReport } from '../../../indexer/load.js';
import { SingletonGrouping, type GroupingStage } from '../../../indexer/grouping.js';
import { DedupGrouping } from '../../../indexer/dedup/stage.js';
import { rebuildGroups } from '../../../indexer/dedup/rebuild.js';
import { generateSample } from '../../../indexer/sample/generate.js';
import { loadSites } from '../../../src/core/model/sites.js';
import { loadCommunes } from '../../../src/core/refdata/communes.js';
import { SqliteListingStore } from '../../../src/adapters/sqlite-listings/listing-store.js';
import { writeNdjson } from '../../support/raw.js';
import { baseOfKey } from '../../../src/core/dedup/block-key.js';
import type { StoredListing } from '../../../src/core/model/stored.js';
import { flat, neighbour, onLeboncoin, onPap, onSeloger, type Raw } from './raw-flats.js';

const sites = loadSites();
const communes = loadCommunes();

describe('DedupGrouping in the load pipeline', function () {
  this.timeout(60_000);
  let dir: string;
  let store: SqliteListingStore;
  let wallClock: number;

  const load = (records: Raw[], grouping: GroupingStage = new DedupGrouping({ sites })) => {
    wallClock += 60_000;
    return runLoad({ files: [writeNdjson(records, `in-${wallClock}.ndjson`, dir)], store, sites, communes, now: () => wallClock, grouping });
  };
  const get = async (id: string) => (await store.get(id))!;
  const all = async () => (store.database.prepare('SELECT id FROM listings ORDER BY id').all() as { id: string }[]).map((r) => r.id);

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'dedup-stage-'));
    store = new SqliteListingStore(path.join(dir, 'listings.sqlite'));
    wallClock = Date.parse('2026-11-15T00:00:00Z');
  });
  afterEach(async () => {
    await store.close();
  });

  it('joins a copy loaded later to the existing listing: one key on every site, the earlier one redelivered', async () => {
    await load([onLeboncoin(), flat('bienici', 'OTHER', { postal_code: '69007', price: '210 000 €' })]);
    const before = await get('leboncoin:LBC-1');
    expect(before.dedup_key).to.equal(null);
    const report = await load([onPap()]);
    expect(report.groups_formed).to.equal(1);
    const [lbc, pap, other] = [await get('leboncoin:LBC-1'), await get('pap:PAP-1'), await get('bienici:OTHER')];
    expect(lbc.dedup_key).to.match(/^d_/).and.to.equal(pap.dedup_key);
    expect(other.dedup_key).to.equal(null);
    expect(lbc.group_sites_ahead).to.deep.equal([]);
    expect(pap.group_sites_ahead).to.deep.equal(['leboncoin']);
    expect(lbc.group_members!.map((m) => m.source)).to.deep.equal(['leboncoin', 'pap']);
    // The earlier listing's public output changed (sources[]): the feed must deliver it again.
    expect(lbc.change_seq).to.be.above(before.change_seq);
    expect(lbc.changed_at).to.equal(wallClock);
  });

  it('completes missing fields from the best-ranked member that has them, without touching the own content hash', async () => {
    await load([onSeloger()], new SingletonGrouping());
    const ownHash = (await get('seloger:SL-1')).content_hash;
    await load([onSeloger(), onLeboncoin(), onPap()]);
    const seloger = await get('seloger:SL-1');
    expect(seloger.completed_from).to.deep.equal({ description: 'leboncoin', images: 'leboncoin', bedrooms: 'leboncoin' });
    expect(seloger.content.images).to.have.length(2);
    expect(seloger.content.images_count).to.equal(2);
    expect(seloger.has_photos).to.equal(true);
    expect(seloger.content_hash).to.equal(ownHash);
    expect((await get('pap:PAP-1')).completed_from).to.deep.equal({ dpe_value: 'seloger', ges_value: 'seloger' });
    // Loading the same records again changes nothing.
    const seqs = await Promise.all((await all()).map(async (id) => (await get(id)).change_seq));
    const again = await load([onSeloger(), onLeboncoin(), onPap()]);
    expect(again).to.include({ unchanged: 3, written: 0 });
    expect(await Promise.all((await all()).map(async (id) => (await get(id)).change_seq))).to.deep.equal(seqs);
  });

  it('when the reference listing leaves the market, the next site becomes the reference and the key stays', async () => {
    await load([onSeloger(), onLeboncoin(), onPap()]);
    const key = (await get('leboncoin:LBC-1')).dedup_key;
    expect((await get('seloger:SL-1')).dedup_key).to.equal(key);
    expect((await get('leboncoin:LBC-1')).group_sites_ahead).to.deep.equal(['seloger']);
    const pap = await get('pap:PAP-1');
    await load([onSeloger({ collected_at: '2026-11-05T10:00:00Z', status: 'vendue' })]);
    const [seloger, lbc, papAfter] = [await get('seloger:SL-1'), await get('leboncoin:LBC-1'), await get('pap:PAP-1')];
    // The withdrawn listing leaves its group: the withdrawn flow shows it as its own site wrote it.
    expect(seloger).to.deep.include({ status: 'vendue', dedup_key: null, group_members: null, group_sites_ahead: [], completed_from: {} });
    expect(seloger.content.description).to.equal(null);
    expect(lbc.dedup_key).to.equal(key);
    expect(lbc.group_sites_ahead).to.deep.equal([]);
    expect(papAfter.group_sites_ahead).to.deep.equal(['leboncoin']);
    expect(papAfter.group_members!.map((m) => m.source)).to.deep.equal(['leboncoin', 'pap']);
    expect(papAfter.change_seq).to.be.above(pap.change_seq);
    // Back on the market, it rejoins its group under the same key.
    await load([onSeloger({ collected_at: '2026-11-06T10:00:00Z' })]);
    expect((await get('seloger:SL-1')).dedup_key).to.equal(key);
    expect((await get('leboncoin:LBC-1')).group_sites_ahead).to.deep.equal(['seloger']);
  });

  it('splits a group when a member no longer matches: the larger part keeps the key, the other is alone', async () => {
    await load([onSeloger(), onLeboncoin(), onPap()]);
    const key = (await get('pap:PAP-1')).dedup_key;
    // pap's price moves 25 %: it cannot be the same property any more.
    await load([onPap({ collected_at: '2026-11-05T10:00:00Z', price: '400 000 €' })]);
    expect((await get('pap:PAP-1')).dedup_key).to.equal(null);
    expect((await get('pap:PAP-1')).group_members).to.equal(null);
    expect((await get('seloger:SL-1')).dedup_key).to.equal(key);
    expect((await get('leboncoin:LBC-1')).group_members!.map((m) => m.source)).to.deep.equal(['seloger', 'leboncoin']);
    // A group of two that splits leaves two listings without a known duplicate.
    await load([onLeboncoin({ collected_at: '2026-11-06T10:00:00Z', surface: '80 m²' })]);
    expect((await get('seloger:SL-1')).dedup_key).to.equal(null);
    expect((await get('seloger:SL-1')).completed_from).to.deep.equal({});
    expect((await get('seloger:SL-1')).has_photos).to.equal(false);
    expect((await get('leboncoin:LBC-1')).dedup_key).to.equal(null);
  });

  it('never groups two listings of one site; the copy of another site goes with one of them', async () => {
    await load([onLeboncoin(), onLeboncoin({ reference: 'LBC-2', url: 'https://www.leboncoin.example/annonce/LBC-2' }), onPap()]);
    const [a, b, pap] = [await get('leboncoin:LBC-1'), await get('leboncoin:LBC-2'), await get('pap:PAP-1')];
    expect(pap.dedup_key).to.not.equal(null);
    expect([a.dedup_key, b.dedup_key].filter((k) => k === pap.dedup_key)).to.have.length(1);
    expect(pap.group_members!.map((m) => m.source)).to.deep.equal(['leboncoin', 'pap']);
  });

  it('does not group neighbouring flats of one building (same surface and type, other floor, price and text)', async () => {
    await load([onLeboncoin(), neighbour('pap', 'N-1'), neighbour('bienici', 'N-2', { price: '245 000 €', dpe: 'E', dpe_value: 270 })]);
    expect((await get('leboncoin:LBC-1')).dedup_key).to.equal(null);
    expect((await get('pap:N-1')).dedup_key).to.equal(null);
    expect((await get('bienici:N-2')).dedup_key).to.equal(null);
  });

  it('does not rewrite members whose group did not change', async () => {
    await load([onLeboncoin(), onPap()]);
    const before = await get('leboncoin:LBC-1');
    // Same block, another flat: regrouped around it, but the existing group's output is the same.
    await load([flat('bienici', 'B-9', { surface: '30 m²', rooms: 1, price: '150 000 €', description: 'Studio au calme.' })]);
    expect(await get('leboncoin:LBC-1')).to.deep.equal(before);
  });

  it('a listing moving to another block leaves its old group', async () => {
    await load([onSeloger(), onLeboncoin(), onPap()]);
    const key = (await get('seloger:SL-1')).dedup_key;
    await load([onPap({ collected_at: '2026-11-05T10:00:00Z', postal_code: '69006', city: 'Lyon 6e' })]);
    expect((await get('pap:PAP-1')).dedup_key).to.equal(null);
    expect((await get('leboncoin:LBC-1')).group_members!.map((m) => m.source)).to.deep.equal(['seloger', 'leboncoin']);
    expect((await get('seloger:SL-1')).dedup_key).to.equal(key);
  });

  describe('rebuild (npm run indexer -- dedup --rebuild)', () => {
    // Generated records are collected up to 2026-11-20: the loads run after that.
    const AFTER_SAMPLE = Date.parse('2026-11-21T00:00:00Z');
    beforeEach(() => {
      wallClock = AFTER_SAMPLE;
    });
    const sample = (count: number, seed: number) => [...generateSample({ count, seed })].map((s) => s.record);
    const partition = async () => {
      const rows = store.database.prepare('SELECT id, dedup_key FROM listings WHERE dedup_key IS NOT NULL').all() as { id: string; dedup_key: string }[];
      const groups = new Map<string, string[]>();
      for (const row of rows) groups.set(row.dedup_key, [...(groups.get(row.dedup_key) ?? []), row.id]);
      return [...groups.values()].map((g) => g.sort().join(' ')).sort();
    };

    it('changes nothing after incremental loads, and gives the same groups whatever order the records came in', async () => {
      const records = sample(2500, 7);
      // Three loads, each in batches of 1000, so groups form across batches and across loads.
      await load(records.slice(0, 900));
      await load(records.slice(900, 1700));
      await load(records.slice(1700));
      const incremental = await partition();
      expect(incremental.length).to.be.above(100);
      const report = await rebuildGroups({ store, sites, now: () => wallClock });
      expect(report.rewritten).to.equal(0);
      expect(await partition()).to.deep.equal(incremental);

      await store.close();
      store = new SqliteListingStore(path.join(dir, 'reversed.sqlite'));
      await load([...records].reverse());
      expect(await partition()).to.deep.equal(incremental);
    });

    it('groups a catalogue loaded without deduplication as a load with deduplication does', async () => {
      const records = sample(2000, 11);
      await load(records);
      const loaded = await partition();
      await store.close();
      store = new SqliteListingStore(path.join(dir, 'singleton.sqlite'));
      await load(records, new SingletonGrouping());
      expect(await partition()).to.deep.equal([]);
      const report = await rebuildGroups({ store, sites, now: () => wallClock });
      expect(report.rewritten).to.be.above(0);
      expect(await partition()).to.deep.equal(loaded);
      expect((await rebuildGroups({ store, sites, now: () => wallClock })).rewritten).to.equal(0);
    });

    it('reads the blocks of one base at a time: the candidates of a whole batch are never held together', async () => {
      const records = sample(3000, 29);
      await load(records.slice(0, 1500));
      // The bases whose blocks each batch reads from the store, in order (no cache: every read is seen).
      const reads: string[][] = [];
      const readBlock = store.findBlockCandidates.bind(store);
      store.findBlockCandidates = async (key: string) => {
        reads.at(-1)!.push(baseOfKey(key));
        return readBlock(key);
      };
      const stage = new DedupGrouping({ sites, cacheListings: 0 });
      const batches: GroupingStage = {
        get groupsFormed() {
          return stage.groupsFormed;
        },
        apply: (...args) => {
          reads.push([]);
          return stage.apply(...args);
        },
      };
      await load(records.slice(1500), batches);
      expect(reads).to.have.length(2);
      for (const batch of reads) {
        expect(batch.length).to.be.above(300);
        // Once the stage has moved on from a base, it never reads that base again in the batch.
        const done = new Set<string>();
        batch.forEach((base, i) => {
          if (i > 0 && base !== batch[i - 1]) done.add(batch[i - 1]);
          expect(done.has(base), `base ${base} read again after other bases`).to.equal(false);
        });
      }
    });

    it('reads the other members of the groups a batch changes in one read, whatever the number of bases', async () => {
      const records = sample(3000, 31);
      await load(records.slice(0, 1500));
      const stage = new DedupGrouping({ sites, cacheListings: 0 });
      // Per batch: the reads of whole listings the stage makes, and how many ids they ask for.
      const reads: number[][] = [];
      let inStage = false;
      const getMany = store.getMany.bind(store);
      store.getMany = async (ids: string[]) => {
        if (inStage) reads.at(-1)!.push(ids.length);
        return getMany(ids);
      };
      const batches: GroupingStage = {
        get groupsFormed() {
          return stage.groupsFormed;
        },
        apply: async (...args) => {
          reads.push([]);
          inStage = true;
          try {
            return await stage.apply(...args);
          } finally {
            inStage = false;
          }
        },
      };
      const report = await load(records.slice(1500), batches);
      expect(report.groups_formed).to.be.above(20);
      expect(reads).to.have.length(2);
      // One read a batch (the load gave the batch's own listings): a read per base would be hundreds.
      for (const batch of reads) expect(batch).to.have.length(1);
      expect(reads.flat().reduce((sum, n) => sum + n, 0)).to.be.above(20);
    });

    it('reading the blocks of many bases together (as on Elasticsearch) groups as reading them base by base, in a few reads', async () => {
      const records = sample(3000, 37);
      const loadTwice = async (name: string, readTogether: boolean) => {
        await store.close();
        store = new SqliteListingStore(path.join(dir, `${name}.sqlite`));
        wallClock = AFTER_SAMPLE;
        await load(records.slice(0, 1500));
        // The blocks of each read of the stage (the store reads them one by one underneath).
        const reads: number[] = [];
        if (readTogether) {
          const readOne = store.capabilities.storedCandidates!.findBlockCandidates;
          store.capabilities.storedCandidates = {
            findBlockCandidates: (key) => {
              reads.push(1);
              return readOne(key);
            },
            findBlocksCandidates: async (keys) => {
              reads.push(keys.length);
              return new Map(await Promise.all(keys.map(async (key) => [key, await readOne(key)] as const)));
            },
          };
        }
        const before = await store.maxChangeSeq();
        const report = await load(records.slice(1500), new DedupGrouping({ sites, cacheListings: 0 }));
        const listings = await Promise.all((await all()).map(get));
        // The feed positions a batch gives follow the order its bases are regrouped in: compared as "redelivered".
        const rows = listings.map(({ id, dedup_key, group_sites_ahead, group_members, completed_from, change_seq }) => ({
          id,
          dedup_key,
          group_sites_ahead,
          group_members,
          completed_from,
          redelivered: change_seq > before,
        }));
        return { report, rows, reads };
      };
      const baseByBase = await loadTwice('base-by-base', false);
      const together = await loadTwice('together', true);
      expect(together.rows).to.deep.equal(baseByBase.rows);
      expect(together.report.groups_formed).to.equal(baseByBase.report.groups_formed).and.to.be.above(20);
      // Two batches of hundreds of bases each, no cache: every block comes from the store.
      expect(together.reads.length).to.be.within(2, 30);
      expect(together.reads.reduce((sum, n) => sum + n, 0)).to.be.above(1000);
      for (const n of together.reads) expect(n).to.be.at.most(500);
    });

    it('writes the same store whatever the block cache holds (none, a few blocks, the default)', async () => {
      const records = sample(3000, 23);
      const snapshot = () =>
        store.database
          .prepare('SELECT l.id, l.dedup_key, l.sites_ahead, l.change_seq, t.doc FROM listings l JOIN listing_texts t ON t.rowid = l.rowid ORDER BY l.id')
          .all();
      const states = [];
      for (const cacheListings of [0, 40, undefined]) {
        await store.close();
        store = new SqliteListingStore(path.join(dir, `cache-${cacheListings}.sqlite`));
        wallClock = AFTER_SAMPLE;
        // One stage for three loads, as a long-running caller would use it (the cache spans batches and loads).
        const grouping = new DedupGrouping({ sites, cacheListings });
        await load(records.slice(0, 1400), grouping);
        await load(records.slice(1400), grouping);
        const withdrawals = await load(
          records.slice(0, 600).map((r) => ({ ...r, collected_at: '2026-11-20T12:00:00Z', status: 'vendue' })),
          grouping,
        );
        expect(withdrawals.written).to.be.above(500);
        states.push(snapshot());
        // The cache is a copy of the store's blocks: each cached block holds what the store returns
        // for it, once each, with the same group key (a stale copy would be regrouped as it was).
        let cachedListings = 0;
        for (const [key, members] of grouping.blockCache.cached()) {
          const inStore = (await store.findBlockCandidates(key)).map((c) => `${c.id} ${c.dedup_key}`).sort();
          expect(members.map((c) => `${c.id} ${c.dedup_key}`).sort(), `block ${key}`).to.deep.equal(inStore);
          cachedListings += members.length;
        }
        expect(cachedListings).to.equal(grouping.blockCache.size);
        if (cacheListings !== 0) expect(cachedListings).to.be.above(0);
      }
      expect(states[1]).to.deep.equal(states[0]);
      expect(states[2]).to.deep.equal(states[0]);
    });

    it('a first build groups once at its end: every block read once, the groups and listings of grouping it batch by batch', async () => {
      const records = sample(3000, 31);
      const blockReads: string[] = [];
      const countReads = () => {
        const readBlock = store.findBlockCandidates.bind(store);
        store.findBlockCandidates = async (key: string) => {
          blockReads.push(key);
          return readBlock(key);
        };
      };
      countReads();
      // Pages of 3 block keys: many bases straddle two pages or more.
      const atEnd = await load(records, new DedupGrouping({ sites, blockKeysPerPage: 3 }));
      const keys = (
        store.database.prepare('SELECT DISTINCT block_key FROM listings WHERE active = 1 AND block_key IS NOT NULL').pluck().all() as string[]
      ).sort();
      expect([...blockReads].sort()).to.deep.equal(keys);
      expect(atEnd.grouping_seconds).to.be.above(0);
      const groups = await partition();
      // Every grouped listing was written again with its group fields, and only those.
      expect(atEnd.regrouped_at_end).to.equal(groups.join(' ').split(' ').length);
      expect(groups.length).to.be.above(200);
      const firstBuild = store;
      const listings = async () => Promise.all((await all()).map(get));
      const grouped = await listings();
      const features = () =>
        store.database
          .prepare('SELECT l.id, f.* FROM dedup_features f JOIN listings l ON l.rowid = f.rowid ORDER BY l.id')
          .all()
          .map((row) => ({ ...(row as object), rowid: 0 }));
      const featuresAtEnd = features();

      store = new SqliteListingStore(path.join(dir, 'batch-by-batch.sqlite'));
      wallClock = AFTER_SAMPLE;
      blockReads.length = 0;
      countReads();
      const batchByBatch = await load(records, new DedupGrouping({ sites, groupFirstBuildAtEnd: false }));
      expect(batchByBatch.grouping_seconds).to.equal(0);
      expect(batchByBatch.regrouped_at_end).to.equal(0);
      expect(blockReads.length).to.be.above(2 * keys.length);
      expect(await partition()).to.deep.equal(groups);
      const counts = (report: LoadReport) => ({
        ...report,
        seconds: 0,
        records_per_second: 0,
        write_seconds: 0,
        grouping_seconds: 0,
        regrouped_at_end: 0,
        peak_rss_mib_writing: 0,
        peak_rss_mib: 0,
        longest_event_loop_pause_ms: 0,
        index_operations: 0,
        index_operations_per_listing: 0,
      });
      expect(counts(atEnd)).to.deep.equal(counts(batchByBatch));
      // What each way costs the store: at the end, each listing written, then each grouped one again
      // with its group; batch by batch, each written with the group it joins, and the members of a
      // group that grows rewritten.
      expect(atEnd.index_operations).to.equal(atEnd.written + atEnd.regrouped_at_end);
      expect(batchByBatch.index_operations).to.be.within(batchByBatch.written, atEnd.index_operations);

      // Listing by listing, the same but for the keys (minted from the final groups, not from the
      // groups as they formed) and the change positions (the group fields are written last).
      const keyOf = new Map<string, string>();
      for (const listing of await listings()) if (listing.dedup_key !== null) keyOf.set(listing.id, listing.dedup_key);
      const comparable = (listing: StoredListing) => ({
        ...listing,
        dedup_key: listing.dedup_key === null ? null : keyOf.get(listing.id),
        change_seq: 0,
        changed_at: 0,
      });
      const expected = await listings();
      expect(grouped.map(comparable)).to.deep.equal(expected.map(comparable));
      expect(featuresAtEnd.length).to.be.above(2500);
      expect(featuresAtEnd).to.deep.equal(features());
      // Every listing keeps its own change position, and a regrouping of the first build changes nothing.
      expect(new Set(grouped.map((l) => l.change_seq)).size).to.equal(grouped.length);
      await store.close();
      store = firstBuild;
      expect((await rebuildGroups({ store, sites, now: () => wallClock })).rewritten).to.equal(0);
    });

    it('a first build grouped in a worker thread writes the rows the load thread writes, feed positions included', async () => {
      const records = sample(3000, 31);
      const rows = () =>
        store.database
          .prepare(`SELECT l.rowid AS rowid, l.*, t.doc, t.title, t.description, a.public_json
        FROM listings l JOIN listing_texts t ON t.rowid = l.rowid JOIN listing_annonces a ON a.rowid = l.rowid ORDER BY l.rowid`)
          .all();
      const comparable = (report: LoadReport) => ({
        ...report,
        seconds: 0,
        records_per_second: 0,
        write_seconds: 0,
        grouping_seconds: 0,
        peak_rss_mib_writing: 0,
        peak_rss_mib: 0,
        longest_event_loop_pause_ms: 0,
        grouped_in_worker: null,
      });
      const clockBefore = wallClock;
      const inWorker = await load(records, new DedupGrouping({ sites, blockKeysPerPage: 3, groupInWorker: true }));
      const workerRows = rows() as { change_seq: number; dedup_key: string | null }[];
      await store.close();

      store = new SqliteListingStore(path.join(dir, 'in-thread.sqlite'));
      wallClock = clockBefore;
      const inThread = await load(records, new DedupGrouping({ sites, blockKeysPerPage: 3 }));
      expect([inWorker.grouped_in_worker, inThread.grouped_in_worker]).to.deep.equal([true, false]);
      expect(comparable(inWorker)).to.deep.equal(comparable(inThread));
      expect(inWorker.regrouped_at_end).to.be.above(1000);
      expect(workerRows).to.deep.equal(rows());
      // The grouping gave new feed positions (numbered by the load's thread, after the records'), once each.
      const positions = workerRows.map((row) => row.change_seq);
      expect(Math.max(...positions)).to.be.above(records.length);
      expect(new Set(positions).size).to.equal(positions.length);
      expect(workerRows.filter((row) => row.dedup_key !== null).length).to.equal(inWorker.regrouped_at_end);
    });

    it('a load into a store that holds listings groups batch by batch', async () => {
      const records = sample(1500, 37);
      expect((await load(records.slice(0, 700))).grouping_seconds).to.be.above(0);
      const later = await load(records.slice(700));
      expect(later.grouping_seconds).to.equal(0);
      expect(later.groups_formed).to.be.above(0);
      expect((await rebuildGroups({ store, sites, now: () => wallClock })).rewritten).to.equal(0);
    });

    it('repairs a store whose rows were indexed under an older block key, then regroups it', async () => {
      const records = sample(1200, 5);
      await load(records);
      const loaded = await partition();
      // As written by a version with another block key format, and without grouping.
      store.database.exec("UPDATE listings SET block_key = 'v0:' || block_key, dedup_key = NULL");
      expect(await partition()).to.deep.equal([]);
      await rebuildGroups({ store, sites, now: () => wallClock });
      expect(await partition()).to.deep.equal(loaded);
      const any = (await store.get((await all())[0]))!;
      expect(
        (await store.findBlock((store.database.prepare('SELECT block_key FROM listings WHERE id = ?').get(any.id) as { block_key: string }).block_key)).length,
      ).to.be.above(0);
    });
  });
});
