/**
 * What a change means to an alert (src/core/alerts/events.ts), rule by rule, on one listing whose
 * price, status and dates the tests move; and the retry delays (src/notifier/retry-policy.ts).
 */
import { expect } from 'chai';
import type { Alert } from '../../../src/core/ports/alert-store.js';
import type { StoredListing } from '../../../src/core/model/stored.js';
import { NEW_LISTING_GRACE_MS, eventBody, readActiveChange, readWithdrawal } from '../../../src/core/alerts/events.js';
import { DEFAULT_RETRY_POLICY, retryDelay } from '../../../src/notifier/retry-policy.js';
import { makeListings } from '../../support/fixtures.js';

const CREATED = Date.parse('2026-11-20T00:00:00Z');
const EVERYTHING = { enteredFrom: 0, eligibleSites: null };
const base = makeListings({ count: 1, seed: 3 })[0];

function listingWith(price: number | null, changes: Partial<StoredListing> = {}): StoredListing {
  return {
    ...base,
    status: 'active',
    content: { ...base.content, price },
    catalogue_entered_at: CREATED + 1000,
    changed_at: CREATED + 2000,
    change_seq: 7,
    price_points: [],
    ...changes,
  };
}

const alert: Alert = {
  id: 'al_1',
  account_id: 'acct',
  filtres: {},
  filter: {},
  eligible_sites: null,
  evenements: ['nouvelle', 'baisse_prix', 'retiree'],
  url: 'https://example.com',
  secret: 's',
  created_at: CREATED,
  failing_since: null,
  paused_at: null,
};

describe('alert events', () => {
  it('a listing not seen before and entered recently is new; an old one is learnt silently', () => {
    const fresh = readActiveChange(alert, EVERYTHING, listingWith(100), undefined);
    expect(fresh.event?.type).to.equal('nouvelle');
    expect(fresh.update).to.deep.equal({ kind: 'see', price: 100 });
    const old = readActiveChange(alert, EVERYTHING, listingWith(100, { catalogue_entered_at: CREATED - NEW_LISTING_GRACE_MS - 1 }), undefined);
    expect(old).to.deep.equal({ event: null, update: { kind: 'see', price: 100 } });
  });

  it('a change written before the alert existed, out of scope or not matching means nothing', () => {
    expect(readActiveChange(alert, EVERYTHING, listingWith(100, { changed_at: CREATED - 1 }), undefined)).to.deep.equal({ event: null, update: null });
    expect(readActiveChange(alert, { enteredFrom: CREATED + 5000, eligibleSites: null }, listingWith(100), undefined).event).to.equal(null);
    expect(readActiveChange(alert, { enteredFrom: 0, eligibleSites: ['nowhere'] }, listingWith(100), undefined).event).to.equal(null);
    expect(readActiveChange({ ...alert, filter: { priceMax: 50 } }, EVERYTHING, listingWith(100), undefined).event).to.equal(null);
  });

  it('a price below the one seen is a drop with that previous price; a rise or the same price is not', () => {
    expect(readActiveChange(alert, EVERYTHING, listingWith(90), 100).event).to.deep.include({ type: 'baisse_prix', previousPrice: 100 });
    expect(readActiveChange(alert, EVERYTHING, listingWith(110), 100)).to.deep.equal({ event: null, update: { kind: 'see', price: 110 } });
    expect(readActiveChange(alert, EVERYTHING, listingWith(100), 100)).to.deep.equal({ event: null, update: null });
    expect(readActiveChange(alert, EVERYTHING, listingWith(null), 100).event).to.equal(null);
  });

  it('the first sight of an old listing is a drop when its own history fell', () => {
    const history = [
      { at: '2026-11-01T00:00:00Z', price: 120 },
      { at: '2026-11-21T00:00:00Z', price: 100 },
    ];
    const old = listingWith(100, { catalogue_entered_at: 0, price_points: history });
    expect(readActiveChange(alert, EVERYTHING, old, undefined).event).to.deep.include({ type: 'baisse_prix', previousPrice: 120 });
  });

  it('a withdrawal concerns a listing seen or matching, and the alert forgets it', () => {
    const gone = listingWith(100, { status: 'retiree' });
    expect(readWithdrawal(alert, EVERYTHING, gone, true)).to.deep.include({ update: { kind: 'forget' } });
    expect(readWithdrawal(alert, EVERYTHING, gone, true).event?.type).to.equal('retiree');
    const other = { ...alert, filter: { priceMax: 50 } };
    expect(readWithdrawal(other, EVERYTHING, gone, true).event?.type).to.equal('retiree');
    expect(readWithdrawal(other, EVERYTHING, gone, false).event).to.equal(null);
  });

  it('sends only the events the alert asked for, with ids stable per alert, type, listing and change', () => {
    const onlyDrops = { ...alert, evenements: ['baisse_prix' as const] };
    expect(readActiveChange(onlyDrops, EVERYTHING, listingWith(100), undefined).event).to.equal(null);
    const id = (a: Alert, l: StoredListing, seen?: number) => readActiveChange(a, EVERYTHING, l, seen).event?.id;
    expect(id(alert, listingWith(100), undefined)).to.equal(id(alert, listingWith(100), undefined));
    expect(id(alert, listingWith(100), undefined)).not.to.equal(id({ ...alert, id: 'al_2' }, listingWith(100), undefined));
    expect(id(alert, listingWith(90), 100)).not.to.equal(id(alert, listingWith(90, { change_seq: 8 }), 100));
  });

  it('writes the event body with the listing as presented, and previous_price on a drop only', () => {
    const drop = readActiveChange(alert, EVERYTHING, listingWith(90), 100).event!;
    const body = JSON.parse(eventBody(drop, alert.id, listingWith(90)));
    expect(Object.keys(body)).to.deep.equal(['id', 'type', 'alerte', 'occurred_at', 'previous_price', 'annonce']);
    expect(body).to.deep.include({ type: 'baisse_prix', alerte: 'al_1', previous_price: 100, occurred_at: new Date(CREATED + 2000).toISOString() });
    expect(body.annonce.price).to.equal(90);
    const created = readActiveChange(alert, EVERYTHING, listingWith(90), undefined).event!;
    expect(Object.keys(JSON.parse(eventBody(created, alert.id, listingWith(90))))).to.deep.equal(['id', 'type', 'alerte', 'occurred_at', 'annonce']);
  });
});

describe('retry delays', () => {
  it('double from the base up to the ceiling, each between half and all of it', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1000, maxDelayMs: 8000 };
    expect([1, 2, 3, 4, 5, 40].map((n) => retryDelay(policy, n, () => 0))).to.deep.equal([500, 1000, 2000, 4000, 4000, 4000]);
    expect([1, 2, 3, 4, 5, 40].map((n) => retryDelay(policy, n, () => 1))).to.deep.equal([1000, 2000, 4000, 8000, 8000, 8000]);
  });
});
