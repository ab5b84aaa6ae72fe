/** The benchmark charts: Vega-Lite specs of the recorded figures rendered to SVG without a browser. */
import { expect } from 'chai';
import { apiLatencySpec, indexerSpec, renderSvg } from '../../scripts/bench/charts.js';

describe('benchmark charts', () => {
  it('draws latency by scenario and engine', async () => {
    const spec = apiLatencySpec([
      {
        engine: 'sqlite',
        label: 'run A',
        figures: [
          { scenario: 'search', p50: 14, p99: 25, rps: 3000 },
          { scenario: 'map-paris', p50: 109, p99: 252, rps: 435 },
        ],
      },
      { engine: 'elasticsearch', label: 'run B', figures: [{ scenario: 'search', p50: 20, p99: 40, rps: 2000 }] },
    ]);
    const svg = await renderSvg(spec!);
    expect(svg).to.match(/^<svg /);
    for (const text of ['search', 'map-paris', 'elasticsearch', 'sqlite: run A', 'p50 target']) expect(svg).to.include(text);
    // scenarios.ts: map-paris p50 <= 40 and p99 <= 100 ms, search p99 <= 50 ms; marked on every engine's row.
    const layered = spec as unknown as { layer: { mark: { shape?: string; filled?: boolean } }[] };
    const marks = layered.layer.filter((layer) => layer.mark.shape === 'triangle-down');
    expect(marks.map((m) => m.mark.filled)).to.deep.equal([true, false]);
    const values = (spec!.data as { values: Record<string, unknown>[] }).values;
    expect(values.map((v) => [v.scenario, v['p50 target'], v['p99 target']])).to.deep.equal([
      ['search', null, 50],
      ['map-paris', 40, 100],
      ['search', null, 50],
    ]);
  });

  it('draws the indexer throughput and memory along a load, and nothing without samples', async () => {
    const samples = [0, 5, 10].map((seconds, i) => ({ seconds, listings: i * 10_000, peakMiB: 200 + i, rssMiB: 190 + i }));
    const svg = await renderSvg(indexerSpec({ label: 'run C', records: 20_000, recordsPerSecond: 2_000, samples })!);
    for (const text of ['listings written (committed)', 'MiB', '20,000 records']) expect(svg).to.include(text);
    expect(indexerSpec({ label: 'empty', records: 0, recordsPerSecond: 0, samples: [] })).to.equal(null);
    expect(apiLatencySpec([])).to.equal(null);
  });
});
