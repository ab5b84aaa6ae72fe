/** The indexer benchmark's stages timed alone (indexer-stages.ts): what they count and what the table says. */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeSample } from '../../indexer/sample/write.js';
import { measureStages, stagesTable, STAGES, type StagesReport } from '../../scripts/bench/indexer-stages.js';

describe('bench: the indexer stages alone', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'stages-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads, parses, merges and writes the first N records in batches, the last partial batch included', async () => {
    const generated = path.join(dir, 'generated.ndjson');
    await writeSample({ count: 1_300, out: generated, workers: 0 });
    const lines = readFileSync(generated, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    // A line the parse refuses, second in the file: counted as read and parsed, never written.
    const withRefused = [lines[0], '{"source": "seloger"}', ...lines.slice(1)];
    const sample = path.join(dir, 'sample.ndjson');
    writeFileSync(sample, `${withRefused.join('\n')}\n`);
    const limit = 1_101; // a full batch of 1 000 and a partial one; the lines after it are not read
    const ids = new Set(
      withRefused.slice(0, limit).flatMap((line) => {
        const raw = JSON.parse(line) as { source: string; reference?: string | number };
        return raw.reference === undefined ? [] : [`${raw.source}:${raw.reference}`];
      }),
    );

    const report = await measureStages(sample, limit, path.join(dir, 'store'));

    const items = Object.fromEntries(report.stages.map((s) => [s.stage, s.items]));
    expect(report.stages.map((s) => s.stage)).to.deep.equal([...STAGES]);
    expect(report.rejected).to.equal(1);
    expect(items).to.deep.equal({ read: limit, parse: limit, merge: limit - 1, write: ids.size, build: ids.size });
    expect(report.storedRows).to.equal(ids.size);
    for (const stage of report.stages) expect(stage.seconds, stage.stage).to.be.greaterThan(0);
  });

  it('says what the stages bound, against the 125 µs a record of the target', () => {
    const report: StagesReport = {
      rejected: 0,
      storedRows: 100_000,
      stages: [
        { stage: 'read', items: 100_000, seconds: 1 }, // 10 µs
        { stage: 'parse', items: 100_000, seconds: 15 }, // 150 µs
        { stage: 'merge', items: 100_000, seconds: 0.5 }, // 5 µs
        { stage: 'write', items: 100_000, seconds: 6 }, // 60 µs
        { stage: 'build', items: 100_000, seconds: 2 }, // 20 µs
      ],
    };
    const text = stagesTable(report, 400e-6, 2);
    const cells = text
      .split('\n')
      .filter((line) => line.startsWith('| parse'))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim()),
      );
    expect(cells).to.deep.equal([['parse: JSON, schema, normalise, redact, hash', '100 000', '15.00', '150.0', '6 667', '120 %']]);
    expect(text).to.contain('All stages: 245.0 µs a record, at most 4 082 records/s on one thread');
    // The parse worker's 160 µs (read + parse) against the load thread's 85 (merge + write + build).
    expect(text).to.contain('as in a load: at most 6 250 records/s');
    expect(text).to.contain('every 400.0 µs in its write phase (main thread); merge and write alone take 65.0');
    expect(text).to.contain('take the other 335.0 µs');
    expect(text).to.contain(
      'CPU budget on 2 cores: 250 µs a record for everything at 8 000 records/s; read + parse alone take 160.0, merge + write + build alone 85.0.',
    );
  });
});
