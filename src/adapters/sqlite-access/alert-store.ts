/**
 * Alerts in the embedded access file (SQLite): one row per alert (its JSON), the notifier's flow
 * positions, the pending deliveries in insertion order, the delivery log and the prices seen.
 * A flow step is one transaction, so a notifier killed in the middle of one redoes it whole. The
 * end of a delivery joins the connection's commit group (commit-group.ts): the deliveries finished
 * in one turn of the event loop, with the quota counts of that turn, share one commit.
 */
import type Database from 'better-sqlite3';
import { StatementCache } from '../sqlite-shared/statements.js';
import { CommitGroup } from './commit-group.js';
import { DELIVERY_LOG_SIZE, type Alert, type AlertStore, type DeliveryRecord, type FlowStep, type PendingDelivery } from '../../core/ports/alert-store.js';

const ALERTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS alerts (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, created_at INTEGER NOT NULL, alert TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS ix_alerts_account ON alerts(account_id, created_at);
CREATE TABLE IF NOT EXISTS alert_flow_positions (flow TEXT PRIMARY KEY, position TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS alert_pending (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, alert_id TEXT NOT NULL, event_id TEXT NOT NULL, delivery TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ix_alert_pending ON alert_pending(alert_id, seq);
CREATE TABLE IF NOT EXISTS alert_deliveries (seq INTEGER PRIMARY KEY AUTOINCREMENT, alert_id TEXT NOT NULL, record TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS ix_alert_deliveries ON alert_deliveries(alert_id, seq);
CREATE TABLE IF NOT EXISTS alert_seen (
  alert_id TEXT NOT NULL, listing_id TEXT NOT NULL, price REAL, PRIMARY KEY (alert_id, listing_id)
) WITHOUT ROWID;
`;

/**
 * The seq of an alert's pending delivery, found from the head of its queue (the notifier finishes
 * or reschedules the head): without the ORDER BY and LIMIT every pending row of the alert was read.
 */
const PENDING_SEQ = 'SELECT seq FROM alert_pending WHERE alert_id = ? AND event_id = ? ORDER BY seq LIMIT 1';

/** Entries logged for an alert between two trims of its log (which holds at most DELIVERY_LOG_SIZE + this many rows). */
const LOG_TRIM_EVERY = 20;

export class SqliteAlertStore implements AlertStore {
  /** The notifier runs the same few statements for every delivery: each is prepared once. */
  private readonly statements: StatementCache;
  private readonly commits: CommitGroup;
  /** Made once: better-sqlite3 builds a transaction function's wrappers at each db.transaction(). */
  private readonly finish: Database.Transaction<(delivery: PendingDelivery, record: DeliveryRecord) => void>;
  /** Per alert, entries logged by this connection since it last trimmed the alert's log. */
  private readonly logWritten = new Map<string, number>();

  constructor(private readonly db: Database.Database) {
    db.exec(ALERTS_SCHEMA);
    this.statements = new StatementCache(db);
    this.commits = CommitGroup.of(db);
    this.finish = db.transaction((delivery: PendingDelivery, record: DeliveryRecord) => {
      // Not pending any more (the alert was deleted meanwhile): nothing to log.
      if (this.sql(`DELETE FROM alert_pending WHERE seq = (${PENDING_SEQ})`).run(delivery.alert_id, delivery.event_id).changes === 0) return;
      this.sql('INSERT INTO alert_deliveries (alert_id, record) VALUES (?, ?)').run(delivery.alert_id, JSON.stringify(record));
      // The log is cut back to its size every LOG_TRIM_EVERY entries (and at the first after start),
      // not at each one: reading DELIVERY_LOG_SIZE index entries per delivery cost as much as the rest.
      const written = (this.logWritten.get(delivery.alert_id) ?? LOG_TRIM_EVERY) + 1;
      if (written < LOG_TRIM_EVERY) {
        this.logWritten.set(delivery.alert_id, written);
        return;
      }
      this.logWritten.set(delivery.alert_id, 0);
      this.sql(
        'DELETE FROM alert_deliveries WHERE alert_id = ? AND seq <= (SELECT seq FROM alert_deliveries WHERE alert_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)',
      ).run(delivery.alert_id, delivery.alert_id, DELIVERY_LOG_SIZE);
    });
  }

  private sql(text: string): Database.Statement {
    return this.statements.get(text);
  }

  async createAlert(alert: Alert, limit: number): Promise<boolean> {
    const create = this.db.transaction(() => {
      const held = this.sql('SELECT count(*) FROM alerts WHERE account_id = ?').pluck().get(alert.account_id) as number;
      if (held >= limit) return false;
      this.db
        .prepare('INSERT INTO alerts (id, account_id, created_at, alert) VALUES (?, ?, ?, ?)')
        .run(alert.id, alert.account_id, alert.created_at, JSON.stringify(alert));
      return true;
    });
    return create.immediate();
  }

  async getAlert(id: string): Promise<Alert | null> {
    const text = this.sql('SELECT alert FROM alerts WHERE id = ?').pluck().get(id) as string | undefined;
    return text ? (JSON.parse(text) as Alert) : null;
  }

  async listAlerts(accountId: string): Promise<Alert[]> {
    const texts = this.sql('SELECT alert FROM alerts WHERE account_id = ? ORDER BY created_at, id').pluck().all(accountId) as string[];
    return texts.map((text) => JSON.parse(text) as Alert);
  }

  async allAlerts(): Promise<Alert[]> {
    const texts = this.sql('SELECT alert FROM alerts ORDER BY created_at, id').pluck().all() as string[];
    return texts.map((text) => JSON.parse(text) as Alert);
  }

  async deleteAlert(id: string): Promise<boolean> {
    const remove = this.db.transaction(() => {
      for (const table of ['alert_pending', 'alert_deliveries', 'alert_seen']) this.sql(`DELETE FROM ${table} WHERE alert_id = ?`).run(id);
      this.logWritten.delete(id);
      return this.sql('DELETE FROM alerts WHERE id = ?').run(id).changes > 0;
    });
    return remove.immediate();
  }

  async setAlertHealth(id: string, health: Pick<Alert, 'failing_since' | 'paused_at'>): Promise<void> {
    this.db
      .prepare(`UPDATE alerts SET alert = json_set(alert, '$.failing_since', json(?), '$.paused_at', json(?)) WHERE id = ?`)
      .run(JSON.stringify(health.failing_since), JSON.stringify(health.paused_at), id);
  }

  async flowPosition(flow: string): Promise<string | null> {
    return (this.sql('SELECT position FROM alert_flow_positions WHERE flow = ?').pluck().get(flow) as string | undefined) ?? null;
  }

  async commitFlowStep(step: FlowStep): Promise<void> {
    const enqueue = this.sql('INSERT INTO alert_pending (alert_id, event_id, delivery) VALUES (?, ?, ?)');
    const see = this.sql('INSERT INTO alert_seen (alert_id, listing_id, price) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET price = excluded.price');
    const forget = this.sql('DELETE FROM alert_seen WHERE alert_id = ? AND listing_id = ?');
    const move = this.sql('INSERT INTO alert_flow_positions (flow, position) VALUES (?, ?) ON CONFLICT DO UPDATE SET position = excluded.position');
    this.db
      .transaction(() => {
        for (const delivery of step.deliveries) enqueue.run(delivery.alert_id, delivery.event_id, JSON.stringify(delivery));
        for (const seen of step.seen) see.run(seen.alert_id, seen.listing_id, seen.price);
        for (const gone of step.forgotten) forget.run(gone.alert_id, gone.listing_id);
        move.run(step.flow, step.position);
      })
      .immediate();
  }

  async seenPrices(alertId: string, listingIds: readonly string[]): Promise<Map<string, number | null>> {
    const read = this.sql('SELECT price FROM alert_seen WHERE alert_id = ? AND listing_id = ?').pluck();
    const prices = new Map<string, number | null>();
    for (const id of listingIds) {
      const price = read.get(alertId, id) as number | null | undefined;
      if (price !== undefined) prices.set(id, price);
    }
    return prices;
  }

  async nextDelivery(alertId: string): Promise<PendingDelivery | null> {
    const text = this.sql('SELECT delivery FROM alert_pending WHERE alert_id = ? ORDER BY seq LIMIT 1').pluck().get(alertId) as string | undefined;
    return text ? (JSON.parse(text) as PendingDelivery) : null;
  }

  async rescheduleDelivery(delivery: PendingDelivery): Promise<void> {
    const update = this.sql(`UPDATE alert_pending SET delivery = ? WHERE seq = (${PENDING_SEQ})`);
    await this.commits.run(() => update.run(JSON.stringify(delivery), delivery.alert_id, delivery.event_id));
  }

  async finishDelivery(delivery: PendingDelivery, record: DeliveryRecord): Promise<void> {
    // Inside the group's transaction the function is a savepoint of its own.
    await this.commits.run(() => this.finish(delivery, record));
  }

  async deliveryLog(alertId: string, limit: number): Promise<DeliveryRecord[]> {
    // The rows past DELIVERY_LOG_SIZE wait for the next trim: they are not shown.
    const texts = this.sql('SELECT record FROM alert_deliveries WHERE alert_id = ? ORDER BY seq DESC LIMIT ?')
      .pluck()
      .all(alertId, Math.min(limit, DELIVERY_LOG_SIZE)) as string[];
    return texts.map((text) => JSON.parse(text) as DeliveryRecord);
  }

  async pendingCount(alertId: string): Promise<number> {
    return this.sql('SELECT count(*) FROM alert_pending WHERE alert_id = ?').pluck().get(alertId) as number;
  }
}
