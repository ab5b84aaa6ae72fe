/** The bench's --profile: which of a run's profile files is summed up. */
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { latestProfile } from '../../scripts/bench/profile.js';

describe('bench: --profile', () => {
  it('sums up the main thread (thread 0) of the latest run, even when another thread wrote a bigger file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'prof-'));
    const write = (name: string, bytes: number) => writeFileSync(path.join(dir, name), 'x'.repeat(bytes));
    write('CPU.20261124.035034.8419.1.002.cpuprofile', 9000); // tsx's loader thread
    write('CPU.20261124.035036.8419.3.004.cpuprofile', 7000); // the parse worker
    write('CPU.20261124.035034.8419.0.001.cpuprofile', 5000); // the main thread
    expect(path.basename(latestProfile(dir)!)).to.equal('CPU.20261124.035034.8419.0.001.cpuprofile');
  });

  it('takes the biggest file when the names carry no thread id', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'prof-'));
    writeFileSync(path.join(dir, 'a.cpuprofile'), 'x'.repeat(10));
    writeFileSync(path.join(dir, 'b.cpuprofile'), 'x'.repeat(20));
    expect(path.basename(latestProfile(dir)!)).to.equal('b.cpuprofile');
    expect(latestProfile(mkdtempSync(path.join(tmpdir(), 'prof-')))).to.equal(null);
  });
});
