/**
 * Over 300 lines on purpose: one suite on one running cluster, sharing its store and loads.
 * What only a running cluster shows (ES_URL): its refusals, refresh visibility, a killed load, and
 * the single-writer lock. Each test works in aliases of its own and deletes them by name.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { describeEngines } from '../../support/engines.js';
import { deleteAliasIndices, elasticsearchConnection, openTestElasticsearchStore, testAlias } from '../../support/elasticsearch.js';
import { rawRecord, writeNdjson } from '../../support/raw.js';
import { startTool } from '../../support/child.js';
import { storeDigest } from '../../support/store-digest.js';
import { reindexUnderLock } from '../../../src/adapters/elasticsearch/locked-reindex.js';
import { makeListings } from '../../support/fixtures.js';
import { createElasticsearchClient } from '../../../src/adapters/elasticsearch/client.js';
import { ensureIndex, indicesOf } from '../../../src/adapters/elasticsearch/aliases.js';
import { ElasticsearchListingStore } from '../../../src/adapters/elasticsearch/listing-store.js';
import { loadIndexDefinition, withShards } from '../../../src/adapters/elasticsearch/index-definition.js';
import { openElasticsearchStore } from '../../../src/adapters/elasticsearch/open.js';
import { stateIndexOf, readLock } from '../../../src/adapters/elasticsearch/writer-lock.js';
import { currentIdentity, WriterBusyError, type WriterIdentity } from '../../../src/core/ports/writer-lock.js';
import { runLoad } from '../../../indexer/load.js';
import { loadSites } from '../../../src/core/model/sites.js';
import { loadCommunes } from '../../../src/core/refdata/communes.js';
import type { StoredListing } from '../../../src/core/model/stored.js';

/** The indexer as `npm run indexer` runs it, in one process (a tsx wrapper would outlive a SIGKILL's target). */
const INDEXER = ['--import', 'tsx', 'indexer/cli.ts'];
const ALL = { enteredFrom: 0, eligibleSites: null };

async function refreshInterval(client: Client, alias: string): Promise<string | undefined> {
  const settings = await client.indices.getSettings({ index: await indicesOf(client, alias), name: 'index.refresh_interval' });
  return Object.values(settings)[0]?.settings?.index?.refresh_interval as string | undefined;
}

async function feedIds(store: ElasticsearchListingStore, until = Date.now() + 86_400_000): Promise<string[]> {
  const ids: string[] = [];
  let after: (string | number)[] | null = null;
  for (;;) {
    const page = await store.feed({ filter: {}, scope: ALL, changedUntil: until, pageSize: 200, after });
    ids.push(...page.items.map((l) => l.id));
    if (!page.hasMore) return ids;
    after = page.last;
  }
}

/** A process of this machine that has exited: its pid is free, or names another process. */
async function deadHolder(): Promise<WriterIdentity> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return { ...currentIdentity(), pid: child.pid!, process_start: 1 };
}

describeEngines('a real Elasticsearch cluster', function (engine) {
  if (engine !== 'elasticsearch') return;
  this.timeout(120_000);
  let client: Client;
  const aliases: string[] = [];
  const fresh = async (prefix: string, shards?: number) => {
    const alias = testAlias(prefix);
    aliases.push(alias);
    await ensureIndex(client, alias, shards === undefined ? undefined : withShards(loadIndexDefinition(), shards));
    return alias;
  };

  before(() => {
    client = createElasticsearchClient(elasticsearchConnection()!, { requestTimeout: 60_000 });
  });
  after(async () => {
    for (const alias of aliases) await deleteAliasIndices(client, alias);
    await client.close();
  });

  it('health: a green cluster is ok with the count and no detail', async () => {
    const store = await openTestElasticsearchStore('health');
    try {
      await store.upsertMany(makeListings({ count: 3, seed: 2 }));
      expect(await store.health()).to.deep.equal({ ok: true, backend: 'elasticsearch', listings: 3 });
      // A replica that no node can hold (one node): yellow, still answering, and said.
      const alias = store.alias;
      await client.indices.putSettings({
        index: await indicesOf(client, alias),
        settings: { index: { auto_expand_replicas: 'false', number_of_replicas: 1 } },
      });
      expect(await store.health()).to.deep.include({ ok: true, listings: 3, detail: 'cluster yellow: 1 shard copies unassigned, 1 data node(s)' });
    } finally {
      await store.close();
    }
  });

  it('refuses wildcard deletes, so tests delete their indices by name', async () => {
    const alias = await fresh('wildcard');
    const error = await client.indices.delete({ index: `${alias}-v*` }).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).to.match(/wildcard|destructive_requires_name/i);
    await deleteAliasIndices(client, alias);
    expect(await indicesOf(client, alias)).to.deep.equal([]);
  });

  it('never creates an index without its mapping behind a missing alias: bulk requires the alias, a load creates it first', async () => {
    const alias = testAlias('noalias');
    aliases.push(alias);
    const store = new ElasticsearchListingStore(client, { alias });
    const [listing] = makeListings({ count: 1, seed: 5 });
    const failures = await store.upsertMany([listing]);
    expect(failures).to.have.length(1);
    expect(failures[0].reason).to.match(/index_not_found|no such index|require_alias/);
    expect(await client.indices.exists({ index: alias })).to.equal(false);
    // A writer taking the lock creates the first generation with the mapping file, then loads.
    const report = await runLoad({ files: [writeNdjson([rawRecord(1)])], store, sites: loadSites(), communes: loadCommunes() });
    expect(report.written).to.equal(1);
    expect(await indicesOf(client, alias)).to.deep.equal([`${alias}-v1`]);
    const mapping = await client.indices.getMapping({ index: `${alias}-v1` });
    expect(mapping[`${alias}-v1`].mappings._meta).to.deep.equal(loadIndexDefinition().mappings._meta);
  });

  it('the feed stops below a writer, live or dead; only the next writer clears a dead one', async () => {
    const store = await openTestElasticsearchStore('hold', { refreshOnWrite: true, writerLeaseMs: 1000 });
    try {
      const [before, during] = makeListings({ count: 2, seed: 9 }).map(
        (l, i): StoredListing => ({ ...l, status: 'active', changed_at: 1_000_000 + i * 1000, change_seq: i + 1 }),
      );
      await store.upsertMany([before]);
      const lock = await store.acquireWriterLock({ changesFrom: during.changed_at });
      await store.upsertMany([during]);
      expect(
        await store.search({ filter: {}, scope: ALL, grouped: false, sort: 'recent', pageSize: 10, page: 1, after: null }).then((r) => r.items.length),
      ).to.equal(2);
      expect(await feedIds(store)).to.deep.equal([before.id]);
      await lock.release();
      expect(await feedIds(store)).to.deep.equal([before.id, during.id]);

      // A writer killed mid-load: its lock stays, and so does refresh_interval -1. The feed, a reader,
      // holds below it and leaves both alone; the next writer takes the silent lock over.
      const alias = store.alias;
      await client.index({
        index: stateIndexOf(alias),
        id: 'writer',
        refresh: true,
        document: { holder: await deadHolder(), changes_from: before.changed_at + 1, heartbeat_at: Date.now(), lease_ms: 500 },
      });
      await client.indices.putSettings({ index: await indicesOf(client, alias), settings: { index: { refresh_interval: '-1' } } });
      expect(await feedIds(store)).to.deep.equal([before.id]);
      expect(await readLock(client, alias)).to.not.equal(null);
      expect(await refreshInterval(client, alias)).to.equal('-1');
      const next = await store.acquireWriterLock({ changesFrom: Date.now() });
      expect(await refreshInterval(client, alias)).to.equal('1s');
      await next.release();
      expect(await readLock(client, alias)).to.equal(null);
      expect(await feedIds(store)).to.deep.equal([before.id, during.id]);
    } finally {
      await store.close();
    }
  });

  it('one writer at a time: a second is refused with who holds the lock; a silent holder is taken over', async () => {
    const store = await openTestElasticsearchStore('lock', { writerLeaseMs: 1200 });
    try {
      const first = await store.acquireWriterLock({ changesFrom: 1 });
      const refused = await store.acquireWriterLock({ changesFrom: 2 }).then(
        () => null,
        (e: Error) => e,
      );
      expect(refused).to.be.instanceOf(WriterBusyError);
      expect(refused!.message).to.include(`pid ${process.pid}`);
      await first.release();
      const second = await store.acquireWriterLock({ changesFrom: 3 });
      await second.release();
      const alias = store.alias;
      await client.index({
        index: stateIndexOf(alias),
        id: 'writer',
        refresh: true,
        document: { holder: await deadHolder(), changes_from: 5, heartbeat_at: Date.now(), lease_ms: 500 },
      });
      const taken = await store.acquireWriterLock({ changesFrom: 10 });
      // The dead load's writes may not be visible yet: the feed stays below the older start.
      expect((await readLock(client, alias))?.document.changes_from).to.equal(5);
      await taken.release();
    } finally {
      await store.close();
    }
  });

  it('a load killed mid-way leaves refreshes off; the API leaves them, the next load restores them and finishes', async () => {
    const alias = await fresh('killed');
    const dir = mkdtempSync(path.join(tmpdir(), 'es-kill-'));
    const file = writeNdjson(
      Array.from({ length: 6000 }, (_, i) => rawRecord(i)),
      'in.ndjson',
      dir,
    );
    const env = { ...process.env, ES_URL: elasticsearchConnection()!.url, ES_INDEX_ALIAS: alias, DATA_DIR: dir, REDIS_URL: '', ES_WRITER_LEASE_SECONDS: '2' };
    const child = spawn(process.execPath, [...INDEXER, 'load', file], { env, stdio: 'ignore' });
    const exited = once(child, 'exit');
    for (let i = 0; i < 600 && (await refreshInterval(client, alias)) !== '-1'; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await refreshInterval(client, alias)).to.equal('-1');
    child.kill('SIGKILL');
    await exited;
    expect(await refreshInterval(client, alias)).to.equal('-1');
    expect(await readLock(client, alias)).to.not.equal(null);

    // What an operator's alerts read: the lock held and refreshes off.
    const status = await startTool(['src/adapters/elasticsearch/cli.ts', 'status'], env).done;
    const shown = JSON.parse(status.stdout);
    expect(Object.values(shown.refresh_interval)).to.deep.equal(['-1']);
    expect(shown.writer_lock).to.include({ lease_ms: 2000 });
    expect(shown.writer_lock.holder.pid).to.equal(child.pid);

    // Opening the store, as the API does, writes nothing: the dead writer's lock is the next writer's.
    const reopened = await openElasticsearchStore({ url: elasticsearchConnection()!.url, alias });
    expect(await refreshInterval(client, alias)).to.equal('-1');
    expect(await readLock(client, alias)).to.not.equal(null);
    await reopened.close();

    const rerun = spawn(process.execPath, [...INDEXER, 'load', file], { env, stdio: ['ignore', 'pipe', 'ignore'] });
    let output = '';
    rerun.stdout.on('data', (chunk) => {
      output += chunk;
    });
    const [code] = await once(rerun, 'exit');
    expect(code, output).to.equal(0);
    expect(await refreshInterval(client, alias)).to.equal('1s');
    expect(await readLock(client, alias)).to.equal(null);
    await client.indices.refresh({ index: alias });
    expect((await client.count({ index: alias })).count).to.equal(6000);
  });

  it('the feed polled while a load runs (3 shards) never delivers a change behind its cursor', async () => {
    // Shards refresh one by one: with three, a write can become visible on one before another.
    const alias = await fresh('polled', 3);
    const dir = mkdtempSync(path.join(tmpdir(), 'es-poll-'));
    const env = { ...process.env, ES_URL: elasticsearchConnection()!.url, ES_INDEX_ALIAS: alias, DATA_DIR: dir, REDIS_URL: '' };
    const store = new ElasticsearchListingStore(client, { alias });
    const first = writeNdjson(
      Array.from({ length: 1500 }, (_, i) => rawRecord(i, { reference: `P${i}` })),
      'a.ndjson',
      dir,
    );
    // The second load changes every price and adds listings: each listing has a newer version to deliver.
    const second = writeNdjson(
      Array.from({ length: 3000 }, (_, i) => rawRecord(i, { reference: `P${i}`, price: `${300 + i} 000 €`, collected_at: '2026-11-02T10:00:00Z' })),
      'b.ndjson',
      dir,
    );
    const load = async (file: string) => {
      const child = spawn(process.execPath, [...INDEXER, 'load', file], { env, stdio: 'ignore' });
      const [code] = await once(child, 'exit');
      expect(code).to.equal(0);
    };
    await load(first);
    // A mirror: the latest version of each listing delivered, by change_seq.
    const mirror = new Map<string, number>();
    let after: (string | number)[] | null = null;
    const poll = async () => {
      for (;;) {
        const page = await store.feed({ filter: {}, scope: ALL, changedUntil: Date.now(), pageSize: 100, after });
        for (const item of page.items) mirror.set(item.id, item.change_seq);
        if (page.last) after = page.last;
        if (!page.hasMore) return;
      }
    };
    let loading = true;
    const second_ = load(second).finally(() => {
      loading = false;
    });
    while (loading) await poll();
    await second_;
    await poll();
    await client.indices.refresh({ index: alias });
    const final = new Map<string, number>();
    for (
      let page = null as null | Awaited<ReturnType<typeof store.feed>>, position: (string | number)[] | null = null;
      page === null || page.hasMore;
      position = page.last
    ) {
      page = await store.feed({ filter: {}, scope: ALL, changedUntil: Date.now(), pageSize: 500, after: position });
      for (const item of page.items) final.set(item.id, item.change_seq);
    }
    expect(final.size).to.equal(3000);
    // Every listing's latest version reached the mirror: nothing appeared behind the cursor.
    expect([...final].filter(([id, seq]) => mirror.get(id) !== seq)).to.deep.equal([]);
  });

  it('reindex on a live cluster: a new generation with the same documents and the shards asked for, the alias moved', async () => {
    const alias = await fresh('reindexed');
    const dir = mkdtempSync(path.join(tmpdir(), 'es-reindex-'));
    const env = { ...process.env, ES_URL: elasticsearchConnection()!.url, ES_INDEX_ALIAS: alias, DATA_DIR: dir, REDIS_URL: '' };
    const file = writeNdjson(
      Array.from({ length: 500 }, (_, i) => rawRecord(i)),
      'in.ndjson',
      dir,
    );
    const shardsOf = async (index: string) => Number((await client.indices.getSettings({ index }))[index].settings?.index?.number_of_shards);
    for (const args of [
      ['load', file],
      ['reindex', '--shards', '2'],
    ]) {
      const child = spawn(process.execPath, [...INDEXER, ...args], { env, stdio: 'ignore' });
      expect((await once(child, 'exit'))[0], args[0]).to.equal(0);
    }
    expect(await indicesOf(client, alias)).to.deep.equal([`${alias}-v2`]);
    // A catalogue this size is one primary (mappings/annonces.json); the reindex grew it as asked.
    expect([await shardsOf(`${alias}-v1`), await shardsOf(`${alias}-v2`)]).to.deep.equal([1, 2]);
    const refused = spawn(process.execPath, [...INDEXER, 'reindex', '--shards', '0'], { env, stdio: 'ignore' });
    expect((await once(refused, 'exit'))[0]).to.equal(2);
    expect(await indicesOf(client, alias)).to.deep.equal([`${alias}-v2`]);
    await client.indices.refresh({ index: alias });
    expect((await client.count({ index: alias })).count).to.equal(500);
    const store = new ElasticsearchListingStore(client, { alias });
    const found = await store.search({ filter: { words: ['lumineux'] }, scope: ALL, grouped: false, sort: 'recent', pageSize: 5, page: 1, after: null });
    expect(found.items).to.have.length(5);
    await client.indices.delete({ index: `${alias}-v1` });
  });

  it("the reindex of the adapter's command line copies while a writer holds the lock, and swaps only once it is released", async () => {
    const store = await openTestElasticsearchStore('reindexlock', { writerLeaseMs: 1200 });
    const env = { ...process.env, ES_URL: elasticsearchConnection()!.url, ES_INDEX_ALIAS: store.alias, REDIS_URL: '' };
    const lock = await store.acquireWriterLock({ changesFrom: Date.now() });
    const reindexing = startTool(['src/adapters/elasticsearch/cli.ts', 'reindex'], env);
    let stderr = '';
    reindexing.child.stderr!.on('data', (c) => {
      stderr += c;
    });
    try {
      for (let i = 0; i < 600 && !stderr.includes('waiting for the writer lock'); i++) await new Promise((r) => setTimeout(r, 100));
      expect(stderr).to.include(`pid ${process.pid}`);
      expect(await indicesOf(client, store.alias)).to.deep.equal([`${store.alias}-v1`]);
    } finally {
      await lock.release();
    }
    const reindexed = await reindexing.done;
    expect(reindexed.code, reindexed.stderr).to.equal(0);
    expect(await indicesOf(client, store.alias)).to.deep.equal([`${store.alias}-v2`]);
    await client.indices.delete({ index: `${store.alias}-v1` });
    await store.close();
  });

  it('a reindex with a load writing during its copy: the new generation holds every change', async () => {
    const alias = await fresh('online');
    const dir = mkdtempSync(path.join(tmpdir(), 'es-online-'));
    const store = new ElasticsearchListingStore(client, { alias });
    const sites = loadSites();
    const communes = loadCommunes();
    const first = Array.from({ length: 2000 }, (_, i) => rawRecord(i));
    await runLoad({ files: [writeNdjson(first, 'a.ndjson', dir)], store, sites, communes });
    // During the copy: new prices for a quarter, new listings, and withdrawals.
    const second = [
      ...Array.from({ length: 500 }, (_, i) => rawRecord(i * 4, { collected_at: '2026-11-02T10:00:00Z', price: `${900 + i} 000 €` })),
      ...Array.from({ length: 200 }, (_, i) => rawRecord(2000 + i, { collected_at: '2026-11-02T10:00:00Z' })),
      ...Array.from({ length: 20 }, (_, i) => rawRecord(i * 4 + 1, { collected_at: '2026-11-02T10:00:00Z', status: 'vendue' })),
    ];
    let writing: Promise<unknown> | null = null;
    const report = await reindexUnderLock(client, {
      alias,
      onProgress: () => {
        writing ??= runLoad({ files: [writeNdjson(second, 'b.ndjson', dir)], store: new ElasticsearchListingStore(client, { alias }), sites, communes });
      },
    });
    await writing;
    expect(report.caught_up).to.be.greaterThan(0);
    expect(await indicesOf(client, alias)).to.deep.equal([`${alias}-v2`]);

    const reference = await fresh('online-ref');
    const referenceStore = new ElasticsearchListingStore(client, { alias: reference });
    await runLoad({ files: [writeNdjson(first, 'a2.ndjson', dir)], store: referenceStore, sites, communes });
    await runLoad({ files: [writeNdjson(second, 'b2.ndjson', dir)], store: referenceStore, sites, communes });
    await client.indices.refresh({ index: [alias, reference] });
    expect(await storeDigest(store)).to.deep.equal(await storeDigest(referenceStore));
    await client.indices.delete({ index: `${alias}-v1` });
  });

  it('ES_INDEX_REPLICAS gives new generations an explicit replica count instead of the auto-expansion', async () => {
    const alias = testAlias('replicas');
    aliases.push(alias);
    const env = { ...process.env, ES_URL: elasticsearchConnection()!.url, ES_INDEX_ALIAS: alias, REDIS_URL: '', ES_INDEX_REPLICAS: '0' };
    const ensured = await startTool(['src/adapters/elasticsearch/cli.ts', 'ensure'], env).done;
    expect(ensured.code, ensured.stderr).to.equal(0);
    const reindexed = await startTool(['src/adapters/elasticsearch/cli.ts', 'reindex'], env).done;
    expect(reindexed.code, reindexed.stderr).to.equal(0);
    const settings = await client.indices.getSettings({ index: [`${alias}-v1`, `${alias}-v2`] });
    for (const index of [`${alias}-v1`, `${alias}-v2`]) {
      expect(settings[index].settings?.index, index).to.include({ number_of_replicas: '0', auto_expand_replicas: 'false' });
    }
    await client.indices.delete({ index: `${alias}-v1` });
  });

  it('a bulk load refreshes once per batch for its block lookups, not once per lookup', async () => {
    const store = await openTestElasticsearchStore('refresh', { refreshOnWrite: false });
    try {
      const alias = store.alias;
      const refreshes = async () => {
        const stats = await client.indices.stats({ index: await indicesOf(client, alias), metric: 'refresh' });
        return stats._all.primaries?.refresh?.external_total ?? 0;
      };
      const before = await refreshes();
      const { DedupGrouping } = await import('../../../indexer/dedup/stage.js');
      const sites = loadSites();
      const records = Array.from({ length: 3000 }, (_, i) => rawRecord(i, { reference: `B${i}` }));
      const report = await runLoad({
        files: [writeNdjson(records)],
        store,
        sites,
        communes: loadCommunes(),
        grouping: new DedupGrouping({ sites }),
        bulkLoad: true,
      });
      expect(report.written).to.equal(3000);
      const index = (await indicesOf(client, alias))[0];
      const shards = Number((await client.indices.getSettings({ index }))[index].settings?.index?.number_of_shards);
      // 3 batches of 1 000, each with hundreds of block lookups; plus maxChangeSeq, the end of the load.
      expect((await refreshes()) - before).to.be.at.most((3 + 3) * shards);
    } finally {
      await store.close();
    }
  });
});
