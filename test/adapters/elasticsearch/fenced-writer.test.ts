/**
 * A fenced writer: an indexer stopped (SIGSTOP) past its lease while a second one takes the lock
 * over, then continued (SIGCONT). The first must stop before its next write with its own exit code;
 * the second finishes; no change is numbered twice, none is lost, groups are whole, and the
 * catalogue equals a clean load's.
 */
import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { describeEngines } from '../../support/engines.js';
import { deleteAliasIndices, elasticsearchConnection, testAlias } from '../../support/elasticsearch.js';
import { rawRecord, writeNdjson } from '../../support/raw.js';
import { startTool } from '../../support/child.js';
import { storeDigest } from '../../support/store-digest.js';
import { createElasticsearchClient } from '../../../src/adapters/elasticsearch/client.js';
import { ensureIndex } from '../../../src/adapters/elasticsearch/aliases.js';
import { ElasticsearchListingStore } from '../../../src/adapters/elasticsearch/listing-store.js';
import { readLock } from '../../../src/adapters/elasticsearch/writer-lock.js';

const LISTINGS = 3000;
/** Every fourth listing has a copy on another site: the copies must end grouped with it. */
const COPIES = LISTINGS / 4;
const LEASE_SECONDS = 3;
const EXIT_FENCED = 75;
const OTHER_SITE: Record<string, string> = { seloger: 'leboncoin', leboncoin: 'bienici', bienici: 'pap', pap: 'seloger' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** The change_seq of every document: each must be a change of its own. */
async function changeSeqs(client: Client, alias: string): Promise<number[]> {
  await client.indices.refresh({ index: alias });
  const seqs: number[] = [];
  let after: (string | number)[] | undefined;
  for (;;) {
    const page = await client.search<{ change_seq: number }>({
      index: alias,
      size: 1000,
      sort: [{ id: 'asc' }],
      _source: ['change_seq'],
      ...(after ? { search_after: after } : {}),
    });
    seqs.push(...page.hits.hits.map((hit) => hit._source!.change_seq));
    if (page.hits.hits.length < 1000) return seqs;
    after = page.hits.hits.at(-1)!.sort as (string | number)[];
  }
}

describeEngines('a fenced Elasticsearch writer', function (engine) {
  if (engine !== 'elasticsearch') return;
  this.timeout(300_000);
  let client: Client;
  const aliases: string[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'fenced-'));
  const records = Array.from({ length: LISTINGS }, (_, i) => rawRecord(i));
  for (let i = 0; i < COPIES; i++) {
    const original = records[i * 4];
    const source = OTHER_SITE[original.source as string];
    records.push({ ...original, source, reference: `C${i}`, url: `https://www.${source}.example/annonce/C${i}` });
  }
  const file = writeNdjson(records, 'in.ndjson', dir);
  const envOf = (alias: string): NodeJS.ProcessEnv => ({
    ...process.env,
    ES_URL: elasticsearchConnection()!.url,
    ES_INDEX_ALIAS: alias,
    ES_WRITER_LEASE_SECONDS: String(LEASE_SECONDS),
    DATA_DIR: dir,
    REDIS_URL: '',
  });
  const fresh = async (prefix: string) => {
    const alias = testAlias(prefix);
    aliases.push(alias);
    await ensureIndex(client, alias);
    return alias;
  };
  const digestOf = async (alias: string) => {
    await client.indices.refresh({ index: alias });
    return storeDigest(new ElasticsearchListingStore(client, { alias }));
  };

  before(() => {
    client = createElasticsearchClient(elasticsearchConnection()!, { requestTimeout: 60_000 });
  });
  after(async () => {
    for (const alias of aliases) await deleteAliasIndices(client, alias).catch(() => {});
    await client.close();
  });

  it('a writer stopped past its lease exits 75 once continued; the writer that took over finishes the catalogue', async () => {
    const cleanAlias = await fresh('fence-clean');
    const clean = await startTool(['indexer/cli.ts', 'load', file], envOf(cleanAlias)).done;
    expect(clean.code, clean.stderr).to.equal(0);
    const expected = await digestOf(cleanAlias);
    expect(expected.listings).to.equal(LISTINGS + COPIES);
    expect(expected.grouped).to.be.at.least(COPIES);
    const cleanSeqs = await changeSeqs(client, cleanAlias);
    expect(new Set(cleanSeqs).size, 'a clean load numbers every listing apart').to.equal(cleanSeqs.length);

    const alias = await fresh('fence');
    const store = new ElasticsearchListingStore(client, { alias });
    const first = startTool(['indexer/cli.ts', 'load', file], envOf(alias));
    // Stopped once a third of the listings is in (a real-time GET sees a write before any refresh).
    const third = rawRecord(Math.floor(LISTINGS / 3));
    await until(async () => (await store.getMany([`${third.source}:${third.reference}`])).size === 1, 'the first writer to write');
    first.child.kill('SIGSTOP');
    const stoppedAt = Date.now();

    const second = startTool(['indexer/cli.ts', 'load', file], envOf(alias));
    await until(async () => (await readLock(client, alias))?.document.holder.pid === second.child.pid, 'the second writer to take the lock over');
    expect(Date.now() - stoppedAt, 'taken over only after a whole lease').to.be.at.least(LEASE_SECONDS * 1000);
    first.child.kill('SIGCONT');

    const [fenced, finished] = await Promise.all([first.done, second.done]);
    expect(fenced.code, fenced.stderr).to.equal(EXIT_FENCED);
    expect(fenced.stderr).to.match(/lost its lock/);
    expect(finished.code, finished.stderr).to.equal(0);
    expect(await readLock(client, alias)).to.equal(null);

    const seqs = await changeSeqs(client, alias);
    expect(seqs).to.have.length(LISTINGS + COPIES);
    expect(new Set(seqs).size, 'no change_seq given twice').to.equal(seqs.length);
    expect(await digestOf(alias)).to.deep.equal(expected);
  });
});
