/**
 * An index of mapping 3 (before the relisting fields) behind the alias, as a cluster has it until
 * `reindex`: the indexer's writes are accepted there (the relisting fields, which its strict mapping
 * would refuse, are left out), and the listings are served without them.
 */
import { expect } from 'chai';
import type { ElasticsearchListingStore } from '../../../src/adapters/elasticsearch/listing-store.js';
import { RELISTING_FIELDS } from '../../../src/adapters/elasticsearch/read-model.js';
import { presentAnnonce } from '../../../src/core/model/present.js';
import { openOlderMappingStore } from '../../support/elasticsearch.js';
import { makeListings } from '../../support/fixtures.js';

describe('Elasticsearch: an index of the mapping before relistings', function () {
  this.timeout(60_000);
  let store: ElasticsearchListingStore | null = null;

  before(async function () {
    store = await openOlderMappingStore('older-mapping', 3, RELISTING_FIELDS);
    if (!store) this.skip();
  });
  after(async () => {
    await store?.close();
  });

  it('takes relisted listings without their relisting fields, and serves them as no relisting', async () => {
    const listings = makeListings({ count: 40, seed: 3 });
    const relisted = listings.filter((l) => l.relisted_from);
    expect(relisted).to.not.have.length(0);
    expect(await store!.upsertMany(listings)).to.deep.equal([]);
    const read = await store!.getMany(relisted.map((l) => l.id));
    for (const listing of relisted) {
      const back = read.get(listing.id)!;
      expect(back.relisted_from ?? null).to.equal(null);
      expect(presentAnnonce(back).relisted_from).to.equal(null);
    }
  });
});
