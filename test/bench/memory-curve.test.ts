/** The indexer benchmark's memory against the input (memory-curve.ts, catalogue.ts loadWithIndexer). */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeSample } from '../../indexer/sample/write.js';
import { loadWithIndexer } from '../../scripts/bench/catalogue.js';
import { memoryCurveTable, readListingCount, type MemorySample } from '../../scripts/bench/memory-curve.js';

const sample = (seconds: number, listings: number | null, peakMiB: number | null, rssMiB: number | null = null): MemorySample => ({
  seconds,
  listings,
  peakMiB,
  rssMiB,
});

describe('bench: the indexer memory against its input', function () {
  this.timeout(120_000);

  it('prints the first sample at or past each fifth of the listings, and how much the peak grew', () => {
    const samples = [
      sample(1, null, 50),
      sample(5, 0, 120), // before the store exists, before the first commit: left out
      sample(10, 100_000, 300, 280),
      sample(15, 200_000, 310, 290),
      sample(20, 300_000, 312, 295),
      sample(25, 400_000, 330, 300),
      sample(30, 450_000, 331, 301),
      sample(35, 500_000, 345, 320),
    ];
    const rows = memoryCurveTable(samples)
      .split('\n')
      .filter((line) => /^\| \d/.test(line))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim()),
      );
    // Marks at 100k, 200k, 300k, 400k, 500k of the 500 000 written.
    expect(rows).to.deep.equal([
      ['100 000', '10', '300.0', '280.0'],
      ['200 000', '15', '310.0', '290.0'],
      ['300 000', '20', '312.0', '295.0'],
      ['400 000', '25', '330.0', '300.0'],
      ['500 000', '35', '345.0', '320.0'],
    ]);
    expect(memoryCurveTable(samples)).to.contain('Peak RSS from 100 000 to 500 000 listings written: 300.0 -> 345.0 MiB (+45.0 MiB).');
  });

  it('shows a sample once when it is the first past several marks, and says when nothing was sampled', () => {
    // Marks at 250, 500, 750 and 1 000 listings: the second sample is the first past all four.
    const text = memoryCurveTable([sample(3, 10, 200), sample(9, 1_000, 210)], 4);
    expect(text.split('\n').filter((line) => /^\| \d/.test(line))).to.deep.equal([
      '| 1 000            | 9    | 210.0                        | -              |',
    ]);
    expect(text).to.contain('1 000 to 1 000 listings written: 210.0 -> 210.0 MiB (+0.0 MiB).');
    expect(memoryCurveTable([sample(1, null, 50), sample(2, 0, 60)])).to.match(/^No sample with listings written/);
  });

  it('samples the real indexer CLI as it loads: peak memory never falling, the store count read back', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'memory-curve-'));
    try {
      const records = path.join(dir, 'sample.ndjson');
      await writeSample({ count: 3_000, out: records, workers: 0 });
      const figures = await loadWithIndexer(records, path.join(dir, 'data'), path.join(dir, 'rejects.ndjson'), [], 50);

      const memory = figures.memory ?? [];
      expect(memory.length, 'samples taken while the child ran').to.be.greaterThan(3);
      const peaks = memory.map((s) => s.peakMiB).filter((p): p is number => p !== null);
      expect(peaks.length).to.be.greaterThan(3);
      // VmHWM is a high-water mark. The kernel's per-thread RSS counters are approximate (they are
      // folded in batches), so a reading may come out a few pages below an earlier one; not a MiB.
      for (let i = 1; i < peaks.length; i++) expect(peaks[i]).to.be.at.least(peaks[i - 1] - 1);
      expect(Math.max(...peaks)).to.be.at.most(figures.peakRssMiB! + 1);
      const counts = memory.map((s) => s.listings ?? 0);
      for (let i = 1; i < counts.length; i++) expect(counts[i]).to.be.at.least(counts[i - 1]);
      expect(Math.max(...counts)).to.be.at.most(figures.written);
      expect(readListingCount(path.join(dir, 'data', 'listings.sqlite'))).to.equal(figures.written);
      expect(readListingCount(path.join(dir, 'missing.sqlite'))).to.equal(null);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
