/** indexer/sample: writing the catalogue to files, in threads or not, and the CLI that does it. */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { RawRecord } from '../../indexer/raw-record.js';
import { generateSample } from '../../indexer/sample/generate.js';
import { writeSample } from '../../indexer/sample/write.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

/** What a line of the output file looks like: undefined fields dropped. */
const asJson = (record: Record<string, unknown>) => JSON.parse(JSON.stringify(record)) as Record<string, unknown>;
/** A smaller catalogue is a prefix of a larger one (sample.test.ts), so each test takes its own. */
const take = (count: number) => [...generateSample({ count })];

describe('indexer/sample: writing files', function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sample-test-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes the same bytes with or without worker threads', async () => {
    const inThread = await writeSample({ count: 400, out: path.join(dir, 'a.ndjson'), labels: path.join(dir, 'a-labels.ndjson'), workers: 0 });
    const withWorkers = await writeSample({ count: 400, out: path.join(dir, 'b.ndjson'), labels: path.join(dir, 'b-labels.ndjson'), workers: 2 });
    expect(withWorkers.workers).to.equal(2);
    expect(await readFile(path.join(dir, 'b.ndjson'), 'utf8')).to.equal(await readFile(path.join(dir, 'a.ndjson'), 'utf8'));
    expect(await readFile(path.join(dir, 'b-labels.ndjson'), 'utf8')).to.equal(await readFile(path.join(dir, 'a-labels.ndjson'), 'utf8'));
    expect({ ...withWorkers, workers: 0, out: '', labels: '', seconds: 0 }).to.deep.equal({ ...inThread, out: '', labels: '', seconds: 0 });
    const lines = (await readFile(path.join(dir, 'a.ndjson'), 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line))).to.deep.equal(take(400).map(({ record }) => asJson(record)));
  });

  it('the CLI writes a readable gzip file with the requested count, labels and a JSON summary', async () => {
    const sample = take(250);
    const out = path.join(dir, 'sample.ndjson.gz');
    const labels = path.join(dir, 'labels.ndjson.gz');
    const { stdout } = await run('npx', ['tsx', 'indexer/sample/cli.ts', '--count', '250', '--out', out, '--labels', labels, '--seed', '42'], { cwd: ROOT });
    const summary = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(summary).to.include({ records: 250, seed: 42 });
    expect(summary.properties).to.be.within(100, 250);
    expect(summary.seconds).to.be.a('number');
    const lines = gunzipSync(await readFile(out))
      .toString('utf8')
      .trimEnd()
      .split('\n');
    expect(lines).to.have.length(250);
    lines.forEach((line, i) => {
      const record = JSON.parse(line);
      expect(RawRecord.safeParse(record).success).to.equal(true);
      expect(record).to.deep.equal(asJson(sample[i].record));
    });
    const labelLines = gunzipSync(await readFile(labels))
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(labelLines).to.have.length(250);
    expect(labelLines[0]).to.deep.equal({
      source: sample[0].record.source,
      reference: String(sample[0].record.reference),
      property: sample[0].propertyId,
      shape: sample[0].shape,
    });
  });

  it('the CLI rejects a missing or bad --count with a usage message', async () => {
    const failure = await run('npx', ['tsx', 'indexer/sample/cli.ts', '--count', 'many', '--out', path.join(dir, 'x.ndjson')], { cwd: ROOT }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).to.equal(2);
    expect(failure?.stderr).to.match(/--count must be a non-negative integer[\s\S]*usage: npm run sample/);
  });
});
