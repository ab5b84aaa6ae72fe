/**
 * docs/benchmarks.md quotes one run: its API tables and the indexer's SQLite row must be the figures
 * of docs/charts/results.json (what the charts are drawn from), to the digits the document prints.
 * A new run that replaces results.json fails this test until the document quotes it.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { readResults, type ApiFigure } from '../../scripts/bench/charts.js';

const DOC = readFileSync(new URL('../../docs/benchmarks.md', import.meta.url), 'utf8');

/** The rows of the first table after a heading line, as cells. */
function tableAfter(heading: string): string[][] {
  const lines = DOC.split('\n');
  const start = lines.indexOf(heading);
  expect(start, heading).to.be.greaterThan(-1);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('## ') || line.startsWith('### ')) break;
    if (!line.startsWith('|')) {
      if (rows.length > 0) break;
      continue;
    }
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  // The header and its rule.
  return rows.slice(2);
}

/** A printed figure (`12 667`, `15.6`, `1110`) and half the unit of its last digit. */
function printed(text: string): { value: number; tolerance: number } {
  const digits = text.replace(/\s/g, '');
  expect(digits, text).to.match(/^\d+(\.\d+)?$/);
  const decimals = digits.includes('.') ? digits.split('.')[1].length : 0;
  return { value: Number(digits), tolerance: 0.5 * 10 ** -decimals + 1e-9 };
}

function expectQuoted(text: string, actual: number, what: string): void {
  const { value, tolerance } = printed(text);
  expect(Math.abs(value - actual), `${what}: the document prints ${text}, the run has ${actual}`).to.be.at.most(tolerance);
}

describe('docs/benchmarks.md quotes the run of docs/charts/results.json', () => {
  const results = readResults();

  for (const [engine, heading] of [
    ['sqlite', '### SQLite'],
    ['elasticsearch', '### Elasticsearch'],
  ] as const) {
    it(`the ${engine} table has every scenario of the run with its req/s, p50 and p99`, () => {
      const run = results.api.find((r) => r.engine === engine);
      expect(run, `no ${engine} run in results.json`).to.not.equal(undefined);
      const rows = tableAfter(heading);
      const byScenario = new Map<string, ApiFigure>(run!.figures.map((f) => [f.scenario, f]));
      expect(rows.map((cells) => cells[0].split(':')[0])).to.deep.equal([...byScenario.keys()]);
      for (const [scenarioCell, rps, p50, p99] of rows) {
        const figure = byScenario.get(scenarioCell.split(':')[0])!;
        expectQuoted(rps, figure.rps, `${engine} ${figure.scenario} req/s`);
        expectQuoted(p50, figure.p50, `${engine} ${figure.scenario} p50`);
        expectQuoted(p99, figure.p99, `${engine} ${figure.scenario} p99`);
      }
      // The run's date is the one the document gives for the API run.
      expect(DOC).to.include(`**date** ${run!.label.match(/\d{4}-\d{2}-\d{2}/)![0]}`);
    });
  }

  it("the indexer table's SQLite row is the load the indexer chart draws", () => {
    const indexer = results.indexer;
    expect(indexer).to.not.equal(null);
    const sqlite = tableAfter('## The indexer run: 1 000 000 records, both engines').find((cells) => cells[0] === 'SQLite');
    expect(sqlite, 'no SQLite row').to.not.equal(undefined);
    expectQuoted(sqlite![1], indexer!.records, 'records');
    expectQuoted(sqlite![5], indexer!.recordsPerSecond, 'end-to-end records/s');
  });
});
