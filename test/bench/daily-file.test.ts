/**
 * The daily load's input (scripts/bench/daily-file.ts): a tenth of the sample changed a day later,
 * loaded through the real pipeline into the catalogue built from the sample.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readLines } from '../../indexer/read.js';
import { runLoad } from '../../indexer/load.js';
import { ensureSample } from '../../scripts/bench/catalogue.js';
import { dailyChange, DAILY_EVERY, ensureDailyFile } from '../../scripts/bench/daily-file.js';
import { loadSites } from '../../src/core/model/sites.js';
import { loadCommunes } from '../../src/core/refdata/communes.js';
import { SqliteListingStore } from '../../src/adapters/sqlite-listings/listing-store.js';
import { listingId } from '../../src/core/model/stored.js';

const record = { source: 'leboncoin', reference: 42, url: 'https://www.leboncoin.fr/ad/42', collected_at: '2026-10-16T04:36:10.902Z', price: '140 000 €' };
const SOURCES = ['seloger', 'leboncoin', 'bienici'];

describe('bench: the daily load', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'bench-daily-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('changes a record as a nightly crawl does, a day later, by turn', () => {
    const kinds = Array.from({ length: 10 }, (_, n) => dailyChange(record, n, SOURCES));
    for (const changed of kinds) expect(changed.collected_at).to.equal('2026-10-17T04:36:10.902Z');
    expect(kinds.slice(0, 4).map((r) => r.price)).to.deep.equal([133_000, 133_000, 133_000, 133_000]);
    expect(kinds.slice(4, 6).map((r) => r.status)).to.deep.equal(['vendue', 'retirée']);
    expect(kinds.slice(6, 9).map((r) => [r.source, r.reference])).to.deep.equal([
      ['leboncoin', '42-R6'],
      ['leboncoin', '42-R7'],
      ['leboncoin', '42-R8'],
    ]);
    expect([kinds[9].source, kinds[9].reference]).to.deep.equal(['bienici', 'D9']);
  });

  it('is a tenth of the sample, and loads whole into the catalogue built from it', async () => {
    const sample = await ensureSample(400, dir);
    const daily = await ensureDailyFile(sample);
    expect(await ensureDailyFile(sample)).to.equal(daily);
    const lines: string[] = [];
    for await (const line of readLines([daily])) lines.push(line.text);
    expect(lines).to.have.length(400 / DAILY_EVERY);

    const store = new SqliteListingStore(path.join(dir, 'l.sqlite'));
    try {
      const options = { store, sites: loadSites(), communes: loadCommunes() };
      const built = await runLoad({ ...options, files: [sample] });
      const before = await store.count();
      const report = await runLoad({ ...options, files: [daily] });
      expect(report).to.include({ read: 40, rejected: 0 });
      // Each record a write: a new price, a status, or a new listing (4 of each 10 new).
      expect(report.written).to.equal(40);
      expect(await store.count()).to.equal(before + 16);
      const sold = JSON.parse(lines[4]) as { source: string; reference: string };
      const listing = (await store.getMany([listingId(sold.source, String(sold.reference))])).get(listingId(sold.source, String(sold.reference)));
      expect(listing?.status).to.equal('vendue');
      expect(built.rejected).to.equal(0);
    } finally {
      await store.close();
    }
  });
});
