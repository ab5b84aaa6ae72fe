/** Per-second and per-minute windows (src/api/access/rate-windows.ts) on the memory store. */
import { expect } from 'chai';
import { RateWindows } from '../../../src/api/access/rate-windows.js';
import { loadOffers } from '../../../src/api/access/offers.js';

describe('rate windows', function () {
  const offer = { ...loadOffers().get('region')!, perSecond: 2, perMinute: 3 };

  it('refuses past the per-second limit, then past the per-minute limit', async function () {
    const windows = RateWindows.inMemory();
    const first = await windows.take(offer, 'acct');
    expect(first.refused).to.equal(null);
    expect(first.refused === null && first.window.remainingPoints).to.equal(2);
    expect((await windows.take(offer, 'acct')).refused).to.equal(null);
    const third = await windows.take(offer, 'acct');
    expect(third.refused).to.equal('second');
    expect(third.refused && third.retryAfterMs).to.be.within(1, 1000);
    // Another account has windows of its own.
    expect((await windows.take(offer, 'other')).refused).to.equal(null);
    const burst = { ...offer, id: 'burst', perSecond: 10 };
    for (let i = 0; i < 3; i++) expect((await windows.take(burst, 'acct')).refused).to.equal(null);
    const pastMinute = await windows.take(burst, 'acct');
    expect(pastMinute.refused).to.equal('minute');
    expect(pastMinute.refused && pastMinute.retryAfterMs).to.be.within(1, 60_000);
  });

  it('keeps separate windows per offer, so an upgrade applies at once', async function () {
    const windows = RateWindows.inMemory();
    await windows.take(offer, 'acct');
    await windows.take(offer, 'acct');
    expect((await windows.take({ ...offer, id: 'national', perSecond: 5 }, 'acct')).refused).to.equal(null);
  });
});
