/**
 * Alerts in Redis, under the access store's key prefix:
 *   <prefix>alert:<id>              STRING  the Alert as JSON
 *   <prefix>alerts                  ZSET    every alert id, scored by creation time
 *   <prefix>alerts-of:<account>     ZSET    the account's alert ids, scored by creation time
 *   <prefix>alert-flow:<flow>       STRING  the notifier's position in a flow
 *   <prefix>alert-queue:<id>        LIST    pending event ids, oldest first
 *   <prefix>alert-pending:<id>      HASH    event id -> PendingDelivery JSON
 *   <prefix>alert-log:<id>          LIST    finished deliveries, newest first, DELIVERY_LOG_SIZE at most
 *   <prefix>alert-seen:<id>         HASH    listing id -> price last seen
 * A flow step is one MULTI, so a notifier killed in the middle of one redoes it whole.
 */
import type { Redis, Result } from 'ioredis';
import { DELIVERY_LOG_SIZE, type Alert, type AlertStore, type DeliveryRecord, type FlowStep, type PendingDelivery } from '../../core/ports/alert-store.js';
import { guarded } from './client.js';

/** Creates the alert unless the account already holds ARGV[4] of them. */
const CREATE_ALERT = `
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[2])
return 1
`;

/** Changes a pending delivery only while it is still pending (the alert may have been deleted meanwhile). */
const RESCHEDULE = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
`;

/** Moves the head delivery to the log, only while it is still pending (the alert may have been deleted meanwhile). */
const FINISH = `
if redis.call('HDEL', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('LREM', KEYS[1], 1, ARGV[1])
redis.call('LPUSH', KEYS[3], ARGV[2])
redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[3]) - 1)
return 1
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    annoncesCreateAlert(alert: string, accountAlerts: string, allAlerts: string, ...args: string[]): Result<number, Context>;
    annoncesRescheduleDelivery(pending: string, eventId: string, delivery: string): Result<number, Context>;
    annoncesFinishDelivery(queue: string, pending: string, log: string, eventId: string, record: string, logSize: string): Result<number, Context>;
  }
}

export class RedisAlertStore implements AlertStore {
  constructor(
    private readonly client: Redis,
    private readonly keyPrefix: string,
  ) {
    client.defineCommand('annoncesCreateAlert', { numberOfKeys: 3, lua: CREATE_ALERT });
    client.defineCommand('annoncesRescheduleDelivery', { numberOfKeys: 1, lua: RESCHEDULE });
    client.defineCommand('annoncesFinishDelivery', { numberOfKeys: 3, lua: FINISH });
  }

  private key(...parts: string[]): string {
    return this.keyPrefix + parts.join(':');
  }

  async createAlert(alert: Alert, limit: number): Promise<boolean> {
    const created = await guarded(() =>
      this.client.annoncesCreateAlert(
        this.key('alert', alert.id),
        this.key('alerts-of', alert.account_id),
        this.key('alerts'),
        JSON.stringify(alert),
        alert.id,
        String(alert.created_at),
        String(limit),
      ),
    );
    return created === 1;
  }

  async getAlert(id: string): Promise<Alert | null> {
    const text = await guarded(() => this.client.get(this.key('alert', id)));
    return text ? (JSON.parse(text) as Alert) : null;
  }

  async listAlerts(accountId: string): Promise<Alert[]> {
    return this.alertsOf(this.key('alerts-of', accountId));
  }

  async allAlerts(): Promise<Alert[]> {
    return this.alertsOf(this.key('alerts'));
  }

  private async alertsOf(index: string): Promise<Alert[]> {
    const ids = await guarded(() => this.client.zrange(index, '0', '-1'));
    if (ids.length === 0) return [];
    const texts = await guarded(() => this.client.mget(ids.map((id) => this.key('alert', id))));
    return texts.filter((text): text is string => text !== null).map((text) => JSON.parse(text) as Alert);
  }

  async deleteAlert(id: string): Promise<boolean> {
    const alert = await this.getAlert(id);
    // Without the alert, what a notifier queued for it meanwhile is removed all the same.
    const multi = this.client
      .multi()
      .del(this.key('alert', id), this.key('alert-queue', id), this.key('alert-pending', id), this.key('alert-log', id), this.key('alert-seen', id))
      .zrem(this.key('alerts'), id);
    if (alert) multi.zrem(this.key('alerts-of', alert.account_id), id);
    await guarded(() => multi.exec());
    return alert !== null;
  }

  async setAlertHealth(id: string, health: Pick<Alert, 'failing_since' | 'paused_at'>): Promise<void> {
    const alert = await this.getAlert(id);
    if (!alert) return;
    // XX: a deletion that happened meanwhile is not undone.
    await guarded(() => this.client.set(this.key('alert', id), JSON.stringify({ ...alert, ...health }), 'XX'));
  }

  async flowPosition(flow: string): Promise<string | null> {
    return guarded(() => this.client.get(this.key('alert-flow', flow)));
  }

  async commitFlowStep(step: FlowStep): Promise<void> {
    const multi = this.client.multi();
    for (const delivery of step.deliveries) {
      multi.hset(this.key('alert-pending', delivery.alert_id), delivery.event_id, JSON.stringify(delivery));
      multi.rpush(this.key('alert-queue', delivery.alert_id), delivery.event_id);
    }
    // An unknown price is kept as an empty string.
    for (const seen of step.seen) multi.hset(this.key('alert-seen', seen.alert_id), seen.listing_id, seen.price === null ? '' : String(seen.price));
    for (const gone of step.forgotten) multi.hdel(this.key('alert-seen', gone.alert_id), gone.listing_id);
    multi.set(this.key('alert-flow', step.flow), step.position);
    await guarded(() => multi.exec());
  }

  async seenPrices(alertId: string, listingIds: readonly string[]): Promise<Map<string, number | null>> {
    const prices = new Map<string, number | null>();
    if (listingIds.length === 0) return prices;
    const values = await guarded(() => this.client.hmget(this.key('alert-seen', alertId), ...listingIds));
    listingIds.forEach((id, i) => {
      const value = values[i];
      if (value !== null) prices.set(id, value === '' ? null : Number(value));
    });
    return prices;
  }

  async nextDelivery(alertId: string): Promise<PendingDelivery | null> {
    const eventId = await guarded(() => this.client.lindex(this.key('alert-queue', alertId), 0));
    if (eventId === null) return null;
    const text = await guarded(() => this.client.hget(this.key('alert-pending', alertId), eventId));
    return text ? (JSON.parse(text) as PendingDelivery) : null;
  }

  async rescheduleDelivery(delivery: PendingDelivery): Promise<void> {
    await guarded(() => this.client.annoncesRescheduleDelivery(this.key('alert-pending', delivery.alert_id), delivery.event_id, JSON.stringify(delivery)));
  }

  async finishDelivery(delivery: PendingDelivery, record: DeliveryRecord): Promise<void> {
    const id = delivery.alert_id;
    await guarded(() =>
      this.client.annoncesFinishDelivery(
        this.key('alert-queue', id),
        this.key('alert-pending', id),
        this.key('alert-log', id),
        delivery.event_id,
        JSON.stringify(record),
        String(DELIVERY_LOG_SIZE),
      ),
    );
  }

  async deliveryLog(alertId: string, limit: number): Promise<DeliveryRecord[]> {
    const texts = await guarded(() => this.client.lrange(this.key('alert-log', alertId), 0, limit - 1));
    return texts.map((text) => JSON.parse(text) as DeliveryRecord);
  }

  async pendingCount(alertId: string): Promise<number> {
    return guarded(() => this.client.llen(this.key('alert-queue', alertId)));
  }
}
