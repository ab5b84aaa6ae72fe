/**
 * A first build on Elasticsearch kept aside and written once (indexer/first-build/): through the CLI
 * it sends one index operation a listing, and it leaves the store the two-pass path leaves (the same
 * listings, group keys and fields) and the groups a SQLite build forms from the same records.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Client } from '@elastic/elasticsearch';
import { cli } from '../support/cli.js';
import { deleteAliasIndices, elasticsearchConnection, elasticsearchMissing, testAlias } from '../support/elasticsearch.js';
import { storeDigest } from '../support/store-digest.js';
import { generateSample } from '../../indexer/sample/generate.js';
import { runLoad, type LoadReport } from '../../indexer/load.js';
import { DedupGrouping } from '../../indexer/dedup/stage.js';
import { scanListings } from '../../indexer/dedup/scan.js';
import { EXIT } from '../../indexer/exit-codes.js';
import { loadSites } from '../../src/core/model/sites.js';
import { loadCommunes } from '../../src/core/refdata/communes.js';
import { loadConfig } from '../../src/config/config.js';
import { openListingStore } from '../../src/open-listing-store.js';
import type { ListingStore } from '../../src/core/ports/listing-store.js';
import type { ElasticsearchListingStore } from '../../src/adapters/elasticsearch/listing-store.js';
import { JOURNAL_ID } from '../../src/adapters/elasticsearch/write-journal.js';

const RECORDS = 2500;

/** Each group of two or more as its members' ids, sorted: comparable across engines, whatever the keys. */
async function groupMemberships(store: ListingStore): Promise<string[][]> {
  const groups = new Map<string, string[]>();
  for await (const page of scanListings(store, 'all')) {
    for (const listing of page) if (listing.dedup_key !== null) groups.set(listing.dedup_key, [...(groups.get(listing.dedup_key) ?? []), listing.id]);
  }
  return [...groups.values()].map((ids) => ids.sort()).sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

const reportOf = (stdout: string): LoadReport => JSON.parse(stdout.trim().split('\n').at(-1)!) as LoadReport;

describe('a first build on Elasticsearch, written once', function () {
  this.timeout(300_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'write-once-'));
  const file = path.join(dir, 'first.ndjson.gz');
  const aliases: string[] = [];
  const connection = elasticsearchConnection();
  const configOf = (alias: string | null) =>
    loadConfig({ ...process.env, DATA_DIR: path.join(dir, alias ?? 'sqlite'), ES_URL: alias ? connection!.url : '', ES_INDEX_ALIAS: alias ?? '' });

  before(function () {
    const missing = elasticsearchMissing();
    if (missing) {
      if (process.env.REQUIRE_ALL_ENGINES) throw new Error(`elasticsearch is required here: ${missing}`);
      this.skip();
    }
    const records = [...generateSample({ count: RECORDS, seed: 21 })].map((r) => JSON.stringify(r.record));
    writeFileSync(file, gzipSync(`${records.join('\n')}\n`));
  });

  after(async () => {
    if (connection) {
      const client = new Client({ node: connection.url });
      for (const alias of aliases) await deleteAliasIndices(client, alias).catch(() => {});
      await client.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('the CLI writes each listing once, with the store of the two-pass path and the groups of SQLite', async () => {
    const once = testAlias('annonces-test-write-once');
    aliases.push(once);
    const run = await cli('indexer/cli.ts', ['load', file], path.join(dir, 'cli'), { ES_URL: connection!.url, ES_INDEX_ALIAS: once });
    expect(run.code, run.stderr).to.equal(EXIT.ok);
    const report = reportOf(run.stdout);
    expect(report.written_once).to.equal(true);
    expect(report.written).to.equal(RECORDS);
    expect(report.index_operations).to.equal(RECORDS);
    expect(report.index_operations_per_listing).to.equal(1);
    expect(report.groups_formed).to.be.greaterThan(100);

    // The same records by the two-pass path (written, read back by block, regrouped, rewritten).
    const twoPass = testAlias('annonces-test-two-pass');
    aliases.push(twoPass);
    const sites = loadSites();
    const twoPassStore = await openListingStore(configOf(twoPass), {}, 'batch');
    let twoPassReport: LoadReport;
    try {
      twoPassReport = await runLoad({
        files: [file],
        store: twoPassStore,
        sites,
        communes: loadCommunes(),
        grouping: new DedupGrouping({ sites }),
        keepAside: false,
      });
    } finally {
      await twoPassStore.close();
    }
    expect(twoPassReport.written_once).to.equal(false);
    expect(twoPassReport.index_operations_per_listing).to.be.greaterThan(1.3);
    expect(twoPassReport.groups_formed).to.equal(report.groups_formed);

    const sqliteRun = await cli('indexer/cli.ts', ['load', file], path.join(dir, 'sqlite'));
    expect(sqliteRun.code, sqliteRun.stderr).to.equal(EXIT.ok);

    const onceStore = await openListingStore(configOf(once));
    const twoPassRead = await openListingStore(configOf(twoPass));
    const sqliteStore = await openListingStore(configOf(null));
    try {
      expect(await storeDigest(onceStore)).to.deep.equal(await storeDigest(twoPassRead));
      const memberships = await groupMemberships(onceStore);
      expect(memberships.length).to.be.greaterThan(100);
      expect(memberships).to.deep.equal(await groupMemberships(sqliteStore));
    } finally {
      await Promise.all([onceStore.close(), twoPassRead.close(), sqliteStore.close()]);
    }
  });

  it('ends merged (one segment a shard, however many the bulk requests left) and writes no batch journal', async () => {
    const alias = testAlias('annonces-test-merged');
    aliases.push(alias);
    const sites = loadSites();
    const store = await openListingStore(configOf(alias), {}, 'batch');
    const client = new Client({ node: connection!.url });
    // A refresh after every bulk request of the build: a segment each, as a big build's flushes leave them.
    const aside = store.capabilities.firstBuildAside!;
    const writePage = aside.writePage.bind(aside);
    let requests = 0;
    aside.writePage = async (listings) => {
      const refused = await writePage(listings);
      requests++;
      await client.indices.refresh({ index: alias });
      return refused;
    };
    // Under the build's mark a page needs no journal (a killed build is rerun whole): none is written.
    const journalRequests: string[] = [];
    // The merge is started as a task and polled: a request that waited for it would be cut by the
    // client's timeout on a big build, whatever its own (undici's headers timeout).
    const mergeRequests: string[] = [];
    (store as unknown as ElasticsearchListingStore).client.diagnostic.on('request', (_error, event) => {
      const requestPath = event?.meta.request.params.path ?? '';
      if (requestPath.includes(JOURNAL_ID)) journalRequests.push(requestPath);
      if (requestPath.includes('_forcemerge') || requestPath.startsWith('/_tasks/'))
        mergeRequests.push(`${requestPath}?${String(event?.meta.request.params.querystring ?? '')}`);
    });
    try {
      const report = await runLoad({ files: [file], store, sites, communes: loadCommunes(), grouping: new DedupGrouping({ sites }) });
      expect(report.written_once).to.equal(true);
      expect(requests).to.be.greaterThan(2);
      expect(journalRequests).to.deep.equal([]);
      expect(mergeRequests[0]).to.match(/_forcemerge\?.*wait_for_completion=false/);
      expect(mergeRequests.slice(1).length).to.be.above(0);
      for (const look of mergeRequests.slice(1)) expect(look).to.match(/^\/_tasks\//);
      const segments = await client.indices.segments({ index: alias });
      const shards = Object.values(segments.indices).flatMap((index) => Object.values(index.shards).flat());
      expect(shards.length).to.be.greaterThan(0);
      for (const shard of shards) expect(Object.keys(shard.segments)).to.have.length(1);
      expect((await client.count({ index: alias })).count).to.equal(RECORDS);
    } finally {
      await store.close();
      await client.close();
    }
  });
});
