import { expect } from 'chai';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { calibrate, integerLoop, residentBytes, sqliteWork } from '../../scripts/bench/calibration.js';
import { machine } from '../../scripts/bench/api-bench.js';

describe('bench: the reference work printed beside the figures (calibration.ts)', () => {
  it('does the work it times: the loop is deterministic, every SQLite lookup finds its row', () => {
    expect(integerLoop(1000)).to.equal(integerLoop(1000)).and.not.equal(integerLoop(1001));
    expect(sqliteWork(2_000)).to.equal(2_000);
  });

  it('prints both medians in the machine line of a report', () => {
    const calibration = calibrate({ loopSteps: 10_000, rows: 500, runs: 3 });
    expect(calibration.jsMs).to.be.a('number').greaterThan(0);
    expect(calibration.sqliteMs).to.be.a('number').greaterThan(0);
    expect(machine({ jsMs: 1234.4, sqliteMs: 56.6 })).to.match(
      /^- machine: \d+ cores .*reference work \(calibration\.ts, lower is faster\): JS loop 1234 ms, SQLite 57 ms$/,
    );
  });

  it('reads how much of a file is in the page cache (fincore), or says it cannot', function () {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'resident-')), 'written');
    writeFileSync(file, Buffer.alloc(1 << 20, 7));
    const resident = residentBytes(file);
    if (resident === null) this.skip(); // no fincore on this machine
    // Just written: its pages are in the cache, and it has no more than its own size.
    expect(resident)
      .to.be.greaterThan(0)
      .and.at.most(1 << 20);
    expect(residentBytes(path.join(file, 'missing'))).to.equal(null);
  });
});
