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
    for (const text of ['search', 'map-paris', 'elasticsearch', 'sqlite: run A']) expect(svg).to.include(text);
  });

  it('draws the indexer throughput and memory along a load, and nothing without samples', async () => {
    const samples = [0, 5, 10].map((seconds, i) => ({ seconds, listings: i * 10_000, peakMiB: 200 + i, rssMiB: 190 + i }));
    const svg = await renderSvg(indexerSpec({ label: 'run C', records: 20_000, recordsPerSecond: 2_000, samples })!);
    for (const text of ['listings written (committed)', 'MiB', '20,000 records']) expect(svg).to.include(text);
    expect(indexerSpec({ label: 'empty', records: 0, recordsPerSecond: 0, samples: [] })).to.equal(null);
    expect(apiLatencySpec([])).to.equal(null);
  });
});
