import { expect } from 'chai';
import { applyPriceReading, TRACKING_START } from '../../indexer/price-history.js';
import { presentPriceHistory } from '../../src/core/model/present.js';
import type { PricePoint } from '../../src/core/model/annonce.js';

const at = (iso: string) => Date.parse(iso);

function passes(readings: [string, number | null][]): readonly PricePoint[] {
  let points: readonly PricePoint[] = [];
  for (const [time, price] of readings) points = applyPriceReading(points, price, at(time));
  return points;
}

describe('price history readings', () => {
  it('records nothing before tracking began on 2026-06-23; the first pass after starts the series', () => {
    expect(TRACKING_START).to.equal(at('2026-06-23T00:00:00Z'));
    expect(passes([['2026-06-01T00:00:00Z', 300000]])).to.deep.equal([]);
    expect(
      passes([
        ['2026-06-01T00:00:00Z', 300000],
        ['2026-06-23T08:00:00Z', 310000],
      ]),
    ).to.deep.equal([{ at: '2026-06-23T08:00:00.000Z', price: 310000 }]);
  });

  it('ignores moves under 1 %, records moves of 1 % or more', () => {
    const points = passes([
      ['2026-07-01T00:00:00Z', 300000],
      ['2026-07-02T00:00:00Z', 298000],
      ['2026-07-03T00:00:00Z', 297000],
    ]);
    expect(points.map((p) => p.price)).to.deep.equal([300000, 297000]);
  });

  it('records at most one reading per hour', () => {
    const points = passes([
      ['2026-07-01T10:00:00Z', 300000],
      ['2026-07-01T10:30:00Z', 250000],
      ['2026-07-01T11:00:00Z', 250000],
    ]);
    expect(points).to.deep.equal([
      { at: '2026-07-01T10:00:00.000Z', price: 300000 },
      { at: '2026-07-01T11:00:00.000Z', price: 250000 },
    ]);
  });

  it('a pass without a price changes nothing', () => {
    expect(
      passes([
        ['2026-07-01T00:00:00Z', 300000],
        ['2026-07-05T00:00:00Z', null],
      ]),
    ).to.have.length(1);
  });

  it('presents previous null while the price never moved, and depth 2 without the series', () => {
    const still = passes([
      ['2026-07-01T00:00:00Z', 300000],
      ['2026-08-01T00:00:00Z', 300500],
    ]);
    expect(presentPriceHistory(still, false)).to.deep.equal({
      current: 300000,
      previous: null,
      changed_at: '2026-07-01T00:00:00.000Z',
      changes: 0,
      tracked_since: '2026-07-01T00:00:00.000Z',
      depth: 2,
    });
    const moved = passes([
      ['2026-07-01T00:00:00Z', 300000],
      ['2026-08-01T00:00:00Z', 280000],
      ['2026-09-01T00:00:00Z', 270000],
    ]);
    expect(presentPriceHistory(moved, true)).to.deep.include({ current: 270000, previous: 280000, changes: 2, depth: 3 });
    expect(presentPriceHistory([], false)).to.equal(null);
  });
});
