import { expect } from 'chai';
import { calibrate, integerLoop, sqliteWork } from './calibration.js';
import { machine } from './api-bench.js';

describe('bench: the reference work printed beside the figures (calibration.ts)', () => {
  it('does the work it times: the loop is deterministic, every SQLite lookup finds its row', () => {
    expect(integerLoop(1000)).to.equal(integerLoop(1000)).and.not.equal(integerLoop(1001));
    expect(sqliteWork(2_000)).to.equal(2_000);
  });

  it('prints both medians in the machine line of a report', () => {
    const calibration = calibrate({ loopSteps: 10_000, rows: 500, runs: 3 });
    expect(calibration.jsMs).to.be.a('number').greaterThan(0);
    expect(calibration.sqliteMs).to.be.a('number').greaterThan(0);
    expect(machine({ jsMs: 1234.4, sqliteMs: 56.6 })).to.match(/^- machine: \d+ cores .*reference work \(calibration\.ts, lower is faster\): JS loop 1234 ms, SQLite 57 ms$/);
  });
});
