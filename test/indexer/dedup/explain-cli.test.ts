/**
 * A group holding a sparse copy, through the command lines an operator runs (`indexer load`, then
 * `dedup explain`), on both engines: the sparse member, which has only its price to compare with the
 * other copies, does not stop an exact copy from joining, and the agency's twin flat stays out.
 */
import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeNdjson } from '../../support/raw.js';
import { cli } from '../../support/cli.js';
import { describeEngines, openEngineStore } from '../../support/engines.js';
import type { ListingStore } from '../../../src/core/ports/listing-store.js';
import { ElasticsearchListingStore } from '../../../src/adapters/elasticsearch/listing-store.js';

/** A house as a site lists it; Levallois-Perret has one postal code, so every copy meets in one block. */
function house(source: string, reference: string, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    source,
    reference,
    url: `https://www.${source}.example/annonce/${reference}`,
    collected_at: '2026-11-10T10:00:00Z',
    transaction: 'vente',
    type: 'maison',
    price: 1_350_000,
    city: 'Levallois-Perret',
    postal_code: '92300',
    images: [`https://img.example/${source}-${reference}.jpg`],
    ...fields,
  };
}

const AGENCY = { seller_type: 'agence', seller_name: 'Foncia Transaction' };

describeEngines('dedup explain: a group with a sparse member', function (engine) {
  this.timeout(120_000);
  let store: ListingStore | undefined;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const explain = async (a: string, b: string) => {
    const result = await cli('indexer/cli.ts', ['dedup', 'explain', a, b], dir, env);
    expect(result.code, result.stderr).to.equal(0);
    return result.stdout;
  };

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sparse-member-'));
    store = await openEngineStore(engine, 'sparse-member');
    env = store instanceof ElasticsearchListingStore ? { ES_URL: process.env.ES_URL, ES_INDEX_ALIAS: store.alias } : {};
    const records = [
      house('seloger', 'S1', { surface: 130.9, rooms: 5, ...AGENCY }),
      // A price and the agency, nothing else: it matches S1 through the agency.
      house('figaro-immo', 'F1', AGENCY),
      // S1's values exactly (the surface rounded), under no agency name: it shares only the price with F1.
      house('leboncoin', 'L1', { surface: 131, rooms: 5 }),
      // The agency's other house of the street at the same price, 3.6 m² larger.
      house('superimmo', 'T1', { surface: 134.5, rooms: 5, ...AGENCY }),
    ];
    const loaded = await cli('indexer/cli.ts', ['load', writeNdjson(records, 'in.ndjson', dir)], dir, env);
    expect(loaded.code, loaded.stderr).to.equal(0);
  });
  after(async () => {
    await store?.close();
  });

  it('the exact copy joins the group though the sparse member has only its price to compare', async () => {
    expect(await explain('seloger/S1', 'leboncoin/L1'))
      .to.match(/score 2\.5 against 2\.5: a match/)
      .and.to.match(/: one group$/m);
    const sparse = await explain('leboncoin/L1', 'figaro-immo/F1');
    expect(sparse)
      .to.match(/evidence price: 1350000 \/ 1350000: \+1\n/)
      .and.to.match(/score 1 against 2\.5: not a match/);
    expect(sparse).to.match(/: one group \(joined through other members\)$/m);
  });

  it('the twin house, which matches the sparse member as well, stays out of the group', async () => {
    expect(await explain('superimmo/T1', 'figaro-immo/F1')).to.match(/score 2\.5 against 2\.5: a match/);
    expect(await explain('superimmo/T1', 'seloger/S1'))
      .to.match(/evidence surface: 134\.5 \/ 130\.9: -2\n/)
      .and.to.match(/score 1 against 2\.5: not a match/)
      .and.to.match(/not one group$/m);
  });
});
