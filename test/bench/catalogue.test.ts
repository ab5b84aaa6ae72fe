/** The benchmark's raw records (catalogue.ts ensureSample): gzipped, as collectors deliver them. */
import { expect } from 'chai';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isGzip, readLines } from '../../indexer/read.js';
import { ensureSample } from '../../scripts/bench/catalogue.js';

async function linesOf(file: string): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of readLines([file])) lines.push(line.text);
  return lines;
}

describe('bench: the raw records of the catalogue', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'bench-sample-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('are generated gzipped under sample.ndjson.gz, N records, with no partial file left', async () => {
    const file = await ensureSample(300, dir);
    expect(path.basename(file)).to.equal('sample.ndjson.gz');
    expect(await isGzip(file)).to.equal(true);
    const lines = await linesOf(file);
    expect(lines).to.have.length(300);
    expect(JSON.parse(lines[0])).to.have.property('source');
    expect(readdirSync(dir)).to.deep.equal(['sample.ndjson.gz']);
  });

  it('are reused when cached gzipped, and generated again when the cached file is plain NDJSON', async () => {
    const file = await ensureSample(120, dir);
    const first = await linesOf(file);
    expect(await ensureSample(120, dir)).to.equal(file);
    writeFileSync(file, '{"plain":true}\n');
    expect(await isGzip(file)).to.equal(false);
    await ensureSample(120, dir);
    expect(await isGzip(file)).to.equal(true);
    // The generator is deterministic: the same records as the first time.
    expect(await linesOf(file)).to.deep.equal(first);
  });
});
