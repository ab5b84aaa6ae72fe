/**
 * Follows the change feed and the withdrawn flow through the ListingReader port, from the positions
 * the AlertStore keeps, and turns each page into deliveries: every change read once, matched in memory
 * against every active alert (src/core/alerts/events.ts). A page's deliveries, the prices the alerts
 * saw and the position after it are committed together: a notifier killed before the commit reads the
 * page again and derives the same events, with the same ids.
 */
import type { ListingReader } from '../core/ports/listing-reader.js';
import type { AccountStore } from '../core/ports/access-store.js';
import type { Alert, AlertStore, FlowStep, PendingDelivery } from '../core/ports/alert-store.js';
import type { StoredListing } from '../core/model/stored.js';
import type { Scope, SearchResult, SortPosition } from '../core/query/query.js';
import { eventBody, readActiveChange, readWithdrawal, type AlertReading } from '../core/alerts/events.js';
import { inScope, matchesFilter } from '../core/query/listing-match.js';

export type FlowName = 'feed' | 'withdrawn';
export const FLOWS: readonly FlowName[] = ['feed', 'withdrawn'];

/** Every listing, every site: the alerts' own scopes are applied in memory. */
const WHOLE_CATALOGUE: Scope = { enteredFrom: 0, eligibleSites: null };

export interface FollowerOptions {
  listings: ListingReader;
  alerts: AlertStore;
  accounts: AccountStore;
  /** The feed's settle delay (FEED_SETTLE_SECONDS): changes younger than it are not read yet. */
  settleMs: number;
  pageSize: number;
  now: () => number;
}

export class FlowFollower {
  constructor(private readonly options: FollowerOptions) {}

  /**
   * Reads and commits one page of a flow; returns the alerts that got deliveries and whether the
   * flow has more to read now.
   */
  async step(flow: FlowName): Promise<{ alertIds: Set<string>; more: boolean }> {
    const { listings, alerts: store, settleMs, pageSize, now } = this.options;
    const stored = await store.flowPosition(flow);
    const after = stored === null ? null : (JSON.parse(stored) as SortPosition);
    // Whole listings: the alerts' filters are matched against every field.
    const query = { filter: {}, scope: WHOLE_CATALOGUE, changedUntil: now() - settleMs, pageSize, after, whole: true };
    const page: SearchResult<StoredListing> = flow === 'feed' ? await listings.feed(query) : await listings.withdrawn(query);
    if (page.items.length === 0 || page.last === null) return { alertIds: new Set(), more: false };
    const step: FlowStep = { flow, position: JSON.stringify(page.last), deliveries: [], seen: [], forgotten: [] };
    for (const { alert, scope } of await this.activeAlerts()) await this.readPage(flow, alert, scope, page.items, step);
    await store.commitFlowStep(step);
    return { alertIds: new Set(step.deliveries.map((d) => d.alert_id)), more: page.hasMore };
  }

  private async readPage(flow: FlowName, alert: Alert, scope: Scope, items: StoredListing[], step: FlowStep): Promise<void> {
    // On the feed only the listings that match can concern the alert: their seen prices alone are read
    // (a page is read for every alert); a withdrawal concerns a listing seen even if it no longer matches.
    const candidates = flow === 'feed' ? items.filter((listing) => inScope(listing, scope) && matchesFilter(listing, alert.filter)) : items;
    if (candidates.length === 0) return;
    const seen = await this.options.alerts.seenPrices(
      alert.id,
      candidates.map((listing) => listing.id),
    );
    for (const listing of candidates) {
      const reading: AlertReading =
        flow === 'feed' ? readActiveChange(alert, scope, listing, seen.get(listing.id)) : readWithdrawal(alert, scope, listing, seen.has(listing.id));
      if (reading.update?.kind === 'see') {
        step.seen.push({ alert_id: alert.id, listing_id: listing.id, price: reading.update.price });
        seen.set(listing.id, reading.update.price);
      } else if (reading.update?.kind === 'forget') {
        step.forgotten.push({ alert_id: alert.id, listing_id: listing.id });
        seen.delete(listing.id);
      }
      if (reading.event) step.deliveries.push(this.pending(alert, listing, reading));
    }
  }

  private pending(alert: Alert, listing: StoredListing, reading: AlertReading): PendingDelivery {
    const event = reading.event!;
    return {
      event_id: event.id,
      alert_id: alert.id,
      type: event.type,
      listing_id: listing.id,
      body: eventBody(event, alert.id, listing),
      attempts: 0,
      first_attempt_at: null,
      next_try_at: 0,
      last_status: null,
    };
  }

  /** Alerts not paused, each with its scope: the account's access start date and the alert's sites. */
  private async activeAlerts(): Promise<{ alert: Alert; scope: Scope }[]> {
    const active = (await this.options.alerts.allAlerts()).filter((alert) => alert.paused_at === null);
    const accountIds = [...new Set(active.map((alert) => alert.account_id))];
    const accounts = new Map(await Promise.all(accountIds.map(async (id) => [id, await this.options.accounts.getAccount(id)] as const)));
    return active.flatMap((alert) => {
      const account = accounts.get(alert.account_id);
      if (!account) return [];
      return [{ alert, scope: { enteredFrom: Date.parse(`${account.annonces_from}T00:00:00Z`), eligibleSites: alert.eligible_sites } }];
    });
  }
}
