/**
 * Relistings on the generated catalogue (indexer/sample/relist.ts plants them, indexer/relisting.ts
 * finds them): a catalogue of a modest size written with its labels, loaded with the real indexer,
 * and the relistings found compared with those planted (docs/deduplication.md "Relisted properties").
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeSample } from '../../../indexer/sample/write.js';
import { runLoad } from '../../../indexer/load.js';
import { DedupGrouping } from '../../../indexer/dedup/stage.js';
import { evaluateStore, readLabels, type Evaluation } from '../../../indexer/dedup/evaluate.js';
import { SqliteListingStore } from '../../../src/adapters/sqlite-listings/listing-store.js';
import { loadSites } from '../../../src/core/model/sites.js';
import { loadCommunes } from '../../../src/core/refdata/communes.js';

describe('relistings found on the generated catalogue', function () {
  this.timeout(300_000);
  let dir: string;
  let evaluation: Evaluation;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'relistings-'));
    const out = path.join(dir, 'sample.ndjson');
    const labels = path.join(dir, 'labels.ndjson');
    await writeSample({ count: 8_000, out, labels, workers: 0 });
    const sites = loadSites();
    const store = new SqliteListingStore(path.join(dir, 'listings.sqlite'));
    try {
      const report = await runLoad({ files: [out], store, sites, communes: loadCommunes(), grouping: new DedupGrouping({ sites }) });
      expect(report.relisted).to.be.above(0);
      evaluation = await evaluateStore(store, await readLabels(labels));
    } finally {
      await store.close();
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('finds most planted relistings, each linked to the listing it republishes', () => {
    const r = evaluation.relistings;
    expect(r.planted).to.be.above(60);
    expect(r.recall, JSON.stringify(r)).to.be.at.least(0.85);
  });

  it('links a new listing only to a withdrawn listing of the same property', () => {
    const r = evaluation.relistings;
    expect(r.found).to.be.at.least(r.found_exact);
    expect(r.precision, JSON.stringify(r)).to.be.at.least(0.97);
  });

  it('leaves the duplicate groups of the listings on the market as they were', () => {
    expect(evaluation.active.precision).to.be.at.least(0.99);
    expect(evaluation.active.recall).to.be.at.least(0.95);
  });
});
