/**
 * Follows the change feed and the withdrawn flow through the ListingReader port, from the positions
 * the AlertStore keeps, and turns each page into deliveries: every change read once, matched in memory
 * against the active alerts it can concern (src/core/alerts/alert-index.ts, then events.ts). A page's
 * deliveries, the prices the alerts saw and the position after it are committed together: a notifier
 * killed before the commit reads the page again and derives the same events, with the same ids.
 */
import type { ListingReader } from '../core/ports/listing-reader.js';
import type { AccountStore } from '../core/ports/access-store.js';
import type { Alert, AlertStore, FlowStep, PendingDelivery } from '../core/ports/alert-store.js';
import type { StoredListing } from '../core/model/stored.js';
import type { Scope, SearchResult, SortPosition } from '../core/query/query.js';
import { eventBody, readActiveChange, readWithdrawal, type AlertReading } from '../core/alerts/events.js';
import { AlertIndex } from '../core/alerts/alert-index.js';

export type FlowName = 'feed' | 'withdrawn';
export const FLOWS: readonly FlowName[] = ['feed', 'withdrawn'];

/** Every listing, every site: the alerts' own scopes are applied in memory. */
const WHOLE_CATALOGUE: Scope = { enteredFrom: 0, eligibleSites: null };

interface ActiveAlert {
  alert: Alert;
  scope: Scope;
}

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
    const concerned = [...this.concerned(flow, await this.activeAlerts(), page.items)].filter(([, candidates]) => candidates.length > 0);
    // The seen prices of every concerned alert asked at once: one round trip on Redis (pipelined), not one per alert.
    const seen = await Promise.all(
      concerned.map(([{ alert }, candidates]) =>
        store.seenPrices(
          alert.id,
          candidates.map((listing) => listing.id),
        ),
      ),
    );
    concerned.forEach(([{ alert, scope }, candidates], i) => this.readPage(flow, alert, scope, candidates, seen[i], step));
    await store.commitFlowStep(step);
    return { alertIds: new Set(step.deliveries.map((d) => d.alert_id)), more: page.hasMore };
  }

  /**
   * The listings of the page that can concern each alert, in the page's order: on the feed those its
   * scope and filters keep; a withdrawal concerns a listing the alert saw even if it no longer
   * matches, so each alert looks at every withdrawal.
   */
  private concerned(flow: FlowName, active: ActiveAlert[], items: StoredListing[]): Map<ActiveAlert, StoredListing[]> {
    if (flow !== 'feed') return new Map(active.map((entry) => [entry, items]));
    const concerned = new Map<ActiveAlert, StoredListing[]>(active.map((entry) => [entry, []]));
    const index = new AlertIndex(active.map((entry) => ({ item: entry, filter: entry.alert.filter, scope: entry.scope })));
    for (const listing of items) for (const entry of index.matching(listing)) concerned.get(entry)!.push(listing);
    return concerned;
  }

  private readPage(flow: FlowName, alert: Alert, scope: Scope, candidates: StoredListing[], seen: Map<string, number | null>, step: FlowStep): void {
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
  private async activeAlerts(): Promise<ActiveAlert[]> {
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
