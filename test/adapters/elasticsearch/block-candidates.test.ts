/**
 * The grouping stage's block reads on a running cluster (block-candidates.ts): on an index of the
 * current mapping each candidate comes from its stored feature bytes and doc values, not `_source`;
 * on an index of mapping 6 (no `dedup_bin`, until `reindex`) from the whole listing, the same
 * candidates either way.
 */
import { expect } from 'chai';
import { reindex } from '../../../src/adapters/elasticsearch/aliases.js';
import { CANDIDATE_FIELDS } from '../../../src/adapters/elasticsearch/block-candidates.js';
import { ElasticsearchListingStore } from '../../../src/adapters/elasticsearch/listing-store.js';
import { DEDUP_BIN_FIELD } from '../../../src/adapters/elasticsearch/read-model.js';
import { blockKeyOf } from '../../../src/core/dedup/block-key.js';
import type { StoredListing } from '../../../src/core/model/stored.js';
import { comparableCandidate, expectedCandidate } from '../../support/candidates.js';
import { elasticsearchConnection, openOlderMappingStore, openTestElasticsearchStore } from '../../support/elasticsearch.js';
import { makeListings } from '../../support/fixtures.js';

const listings = makeListings({ count: 300, seed: 31 });
const active = listings.filter((l) => l.status === 'active' && blockKeyOf(l) !== null);
const keys = [...new Set(active.map((l) => blockKeyOf(l)!))].sort();

/** Each block's candidates as the store reads them, and whether each was read whole. */
async function readAll(store: ElasticsearchListingStore) {
  const read = await store.capabilities.storedCandidates!.findBlocksCandidates!(keys);
  const candidates = [...read.values()].flat();
  return { candidates: candidates.map(comparableCandidate).sort((a, b) => (a.id < b.id ? -1 : 1)), whole: candidates.filter((c) => c.listing).length };
}

const expected = () => active.map(expectedCandidate).sort((a, b) => (a.id < b.id ? -1 : 1));

/** The bytes of a raw search of every block, with `extra` request parts. */
async function responseBytes(store: ElasticsearchListingStore, extra: object): Promise<number> {
  const raw = await store.client.search({ index: store.alias, size: 1000, query: { terms: { block_key: keys } }, ...extra }, { asStream: true, meta: true });
  let bytes = 0;
  for await (const chunk of raw.body as unknown as AsyncIterable<Buffer>) bytes += chunk.length;
  return bytes;
}

describe('Elasticsearch: block reads as candidates', function () {
  this.timeout(90_000);
  let store: ElasticsearchListingStore | null = null;
  let older: ElasticsearchListingStore | null = null;

  before(async function () {
    if (!elasticsearchConnection() && !process.env.REQUIRE_ALL_ENGINES) return this.skip();
    store = await openTestElasticsearchStore('candidates');
    older = await openOlderMappingStore('candidates-v6', 6, [DEDUP_BIN_FIELD]);
    expect(await store.upsertMany(listings)).to.deep.equal([]);
    expect(await older!.upsertMany(listings)).to.deep.equal([]);
  });
  after(async () => {
    await store?.close();
    await older?.close();
  });

  it('the current mapping: every candidate from its feature bytes, a fraction of the documents read whole', async () => {
    expect(active.length).to.be.greaterThan(150);
    const { candidates, whole } = await readAll(store!);
    expect(whole).to.equal(0);
    expect(candidates).to.deep.equal(expected());
    // Only the listings a block read can return carry the bytes.
    const inactive = listings.find((l) => l.status !== 'active')!;
    const kept = await store!.client.search({
      index: store!.alias,
      query: { ids: { values: [inactive.id, active[0].id] } },
      docvalue_fields: ['id', DEDUP_BIN_FIELD],
    });
    const withBytes = kept.hits.hits.filter((hit) => hit.fields?.[DEDUP_BIN_FIELD]).map((hit) => hit._id);
    expect(withBytes).to.deep.equal([active[0].id]);
    const asCandidates = await responseBytes(store!, CANDIDATE_FIELDS);
    const asDocuments = await responseBytes(store!, {});
    expect(asCandidates).to.be.below(asDocuments / 2);
  });

  it('mapping 6: the same candidates from the whole listings, then from the bytes once reindexed', async () => {
    const before = await readAll(older!);
    expect(before.whole).to.equal(active.length);
    expect(before.candidates).to.deep.equal(expected());
    await reindex(older!.client, { alias: older!.alias });
    // The indexer restarted after the reindex (mappings/README.md) reads the bytes.
    const restarted = new ElasticsearchListingStore(older!.client, { alias: older!.alias });
    const after = await readAll(restarted);
    expect(after.whole).to.equal(0);
    expect(after.candidates).to.deep.equal(expected());
  });

  it('a candidate whose listing was rewritten since the last refresh is read as written', async () => {
    const changed: StoredListing = { ...active[0], dedup_key: 'g-rewritten', change_seq: active[0].change_seq + 1000 };
    const writer = await openTestElasticsearchStore('candidates-unrefreshed', { refreshOnWrite: false });
    try {
      expect(await writer.upsertMany([active[0]])).to.deep.equal([]);
      expect(await writer.upsertMany([changed])).to.deep.equal([]);
      const read = await writer.capabilities.storedCandidates!.findBlocksCandidates!([blockKeyOf(changed)!, 'no|such|block|0']);
      expect(read.get('no|such|block|0')).to.deep.equal([]);
      expect(read.get(blockKeyOf(changed)!)!.map(comparableCandidate)).to.deep.equal([expectedCandidate(changed)]);
    } finally {
      await writer.close();
    }
  });
});
