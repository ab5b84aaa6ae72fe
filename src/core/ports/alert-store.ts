/**
 * The AlertStore port: saved searches that push (docs/api.md "Alerts"), the notifier's position in
 * the change flows, its pending deliveries and the delivery log. It lives in the access backend
 * (SQLite embedded, Redis with REDIS_URL) so that every API process and the one notifier share it;
 * one conformance suite (test/conformance/alert-store.test.ts) runs against both adapters.
 */
import type { ListingFilter } from '../query/query.js';

/** `nouvelle`: a new listing matches; `baisse_prix`: its price went down; `retiree`: it left the market. */
export const ALERT_EVENTS = ['nouvelle', 'baisse_prix', 'retiree'] as const;
export type AlertEventType = (typeof ALERT_EVENTS)[number];

export interface Alert {
  id: string;
  account_id: string;
  /** The `/annonces` parameters as the client sent them (shown back by GET). */
  filtres: Record<string, string>;
  /** The same filters, cleaned for matching. */
  filter: ListingFilter;
  /** The sites the alert's site filters leave, null for every site. */
  eligible_sites: string[] | null;
  evenements: AlertEventType[];
  url: string;
  /** HMAC key of the signatures; shown to the client once, at creation. */
  secret: string;
  /** Epoch ms. */
  created_at: number;
  /** Since when deliveries of the alert fail without a success in between (null: healthy). */
  failing_since: number | null;
  /** When the notifier paused the alert after failing too long (null: active). */
  paused_at: number | null;
}

/** An event waiting for its receiver's acknowledgement, in the alert's order. */
export interface PendingDelivery {
  /** Stable id of the event (the receiver drops repeats by it). */
  event_id: string;
  alert_id: string;
  type: AlertEventType;
  listing_id: string;
  /** The event's JSON text, signed at each attempt. */
  body: string;
  /** Attempts made, and when the first one was made (null: none yet). */
  attempts: number;
  first_attempt_at: number | null;
  /** Not to be tried before this time (epoch ms). */
  next_try_at: number;
  /** HTTP status of the last attempt, null for none or a network error or timeout. */
  last_status: number | null;
}

/** One finished delivery, as GET /alertes/{id}/livraisons lists it. */
export interface DeliveryRecord {
  event_id: string;
  type: AlertEventType;
  listing_id: string;
  /** When it finished (epoch ms). */
  at: number;
  /** Status of the last attempt; null for a network error or a timeout. */
  status: number | null;
  attempts: number;
  outcome: 'delivered' | 'failed';
}

/** What the notifier learnt from one page of a flow, committed at once with the page's position. */
export interface FlowStep {
  /** Which flow (`feed`, `withdrawn`) the position belongs to. */
  flow: string;
  /** The opaque position after the page. */
  position: string;
  deliveries: PendingDelivery[];
  /** Prices last seen per alert and listing (a price may be unknown: null). */
  seen: { alert_id: string; listing_id: string; price: number | null }[];
  /** Listings the alerts forget (they left the market). */
  forgotten: { alert_id: string; listing_id: string }[];
}

/** Finished deliveries kept per alert: the log shows the last ones. */
export const DELIVERY_LOG_SIZE = 100;

export interface AlertStore {
  /** Creates the alert unless its account already holds `limit`; false when it does. */
  createAlert(alert: Alert, limit: number): Promise<boolean>;
  getAlert(id: string): Promise<Alert | null>;
  /** The account's alerts, oldest first. */
  listAlerts(accountId: string): Promise<Alert[]>;
  /** Every alert (the notifier), oldest first. */
  allAlerts(): Promise<Alert[]>;
  /**
   * Deletes the alert with its pending deliveries, log and seen listings; false when it did not exist
   * (what was queued for it after a deletion is removed all the same).
   */
  deleteAlert(id: string): Promise<boolean>;
  setAlertHealth(id: string, health: Pick<Alert, 'failing_since' | 'paused_at'>): Promise<void>;

  /** The notifier's position in a flow, as it last committed it (null: never). */
  flowPosition(flow: string): Promise<string | null>;
  /** Enqueues the deliveries, records the prices seen and moves the position, all or nothing. */
  commitFlowStep(step: FlowStep): Promise<void>;
  /** Prices last seen by an alert for these listings (absent: never seen). */
  seenPrices(alertId: string, listingIds: readonly string[]): Promise<Map<string, number | null>>;

  /** The alert's oldest pending delivery. */
  nextDelivery(alertId: string): Promise<PendingDelivery | null>;
  /** Records a failed attempt of the head delivery and when to try again. */
  rescheduleDelivery(delivery: PendingDelivery): Promise<void>;
  /** Removes the delivery from the queue and writes it to the log; nothing when it is not pending (alert deleted). */
  finishDelivery(delivery: PendingDelivery, record: DeliveryRecord): Promise<void>;
  /** The last finished deliveries, newest first. */
  deliveryLog(alertId: string, limit: number): Promise<DeliveryRecord[]>;
  /** Pending deliveries of the alert (GET shows it). */
  pendingCount(alertId: string): Promise<number>;
}
