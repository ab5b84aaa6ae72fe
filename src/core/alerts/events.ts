/**
 * What a change of the flows means to one alert (docs/api.md "Alerts"), as a pure function of the
 * listing, the alert and the price the alert last saw for it:
 * - `nouvelle`: an active listing that matches, which the alert had not seen, entered in the catalogue
 *   at most NEW_LISTING_GRACE_MS before the alert was created (an old listing edited today is not new);
 * - `baisse_prix`: a matching listing whose price fell below the one the alert last saw (or, the
 *   first time the alert sees it, below the listing's previous price), with that `previous_price`;
 * - `retiree`: a listing the alert has seen, or that matches it, left the market.
 * Event ids are derived from the alert, the type, the listing and the write that changed it, so a
 * change read again after a restart yields the same ids and a receiver drops the repeat.
 */
import { createHash } from 'node:crypto';
import type { Alert, AlertEventType } from '../ports/alert-store.js';
import type { StoredListing } from '../model/stored.js';
import { annonceJson, withdrawnJson } from '../model/present.js';
import { inScope, matchesFilter } from '../query/listing-match.js';
import type { Scope } from '../query/query.js';

export const NEW_LISTING_GRACE_MS = 86_400_000;

export interface AlertEvent {
  id: string;
  type: AlertEventType;
  /** The price before the drop (baisse_prix only). */
  previousPrice: number | null;
}

/** What the alert now knows of the listing: its price to remember, that it left (forget it), or nothing new. */
export type SeenUpdate = { kind: 'see'; price: number | null } | { kind: 'forget' } | null;

export interface AlertReading {
  event: AlertEvent | null;
  update: SeenUpdate;
}

const NOTHING: AlertReading = { event: null, update: null };

export function eventId(alertId: string, type: AlertEventType, listing: Pick<StoredListing, 'id' | 'change_seq'>): string {
  const digest = createHash('sha256').update(`${alertId}\n${type}\n${listing.id}\n${listing.change_seq}`).digest('hex');
  return `evt_${digest.slice(0, 32)}`;
}

function previousListedPrice(listing: StoredListing): number | null {
  const points = listing.price_points;
  return points.length > 1 ? points[points.length - 2].price : null;
}

/** An active listing's change, read by an alert; `seenPrice` undefined: the alert never saw it. */
export function readActiveChange(alert: Alert, scope: Scope, listing: StoredListing, seenPrice: number | null | undefined): AlertReading {
  if (listing.changed_at < alert.created_at || !inScope(listing, scope) || !matchesFilter(listing, alert.filter)) return NOTHING;
  const price = listing.content.price;
  const event = (type: AlertEventType, previousPrice: number | null = null): AlertEvent | null =>
    alert.evenements.includes(type) ? { id: eventId(alert.id, type, listing), type, previousPrice } : null;
  if (seenPrice === undefined) {
    const see = { kind: 'see' as const, price };
    if (listing.catalogue_entered_at >= alert.created_at - NEW_LISTING_GRACE_MS) return { event: event('nouvelle'), update: see };
    const before = previousListedPrice(listing);
    const dropped = price !== null && before !== null && price < before;
    return { event: dropped ? event('baisse_prix', before) : null, update: see };
  }
  const dropped = price !== null && seenPrice !== null && price < seenPrice;
  return { event: dropped ? event('baisse_prix', seenPrice) : null, update: price === seenPrice ? null : { kind: 'see', price } };
}

/** A listing that left the market, read by an alert. */
export function readWithdrawal(alert: Alert, scope: Scope, listing: StoredListing, seen: boolean): AlertReading {
  if (listing.changed_at < alert.created_at || !inScope(listing, scope) || !(seen || matchesFilter(listing, alert.filter))) return NOTHING;
  const event = alert.evenements.includes('retiree') ? { id: eventId(alert.id, 'retiree', listing), type: 'retiree' as const, previousPrice: null } : null;
  return { event, update: seen ? { kind: 'forget' } : null };
}

/**
 * The JSON text POSTed to the receiver: `{ id, type, alerte, occurred_at, [previous_price,] annonce }`,
 * the listing as /annonces presents it (a withdrawn one as /annonces/retirees does, with
 * `withdrawn_at` and `reason`); `occurred_at` is when the indexer wrote the change.
 */
export function eventBody(event: AlertEvent, alertId: string, listing: StoredListing): string {
  const annonce = event.type === 'retiree' ? withdrawnJson(listing) : annonceJson(listing);
  const head = {
    id: event.id,
    type: event.type,
    alerte: alertId,
    occurred_at: new Date(listing.changed_at).toISOString(),
    ...(event.type === 'baisse_prix' ? { previous_price: event.previousPrice } : {}),
  };
  return `${JSON.stringify(head).slice(0, -1)},"annonce":${annonce.toString()}}`;
}
