/**
 * Delivers each alert's queue in order, one loop per alert: the head is tried until its receiver
 * acknowledges it or it is given up, then the next. Loops run side by side, so a slow or dead
 * receiver holds back its own alert only. Each attempt first counts the listing against the
 * account's quota, as /annonces counts what it serves (a listing already counted in the window costs
 * nothing again); past the quota the delivery waits like a failed one.
 */
import type pino from 'pino';
import type { AccessStore } from '../core/ports/access-store.js';
import type { Alert, AlertStore, PendingDelivery } from '../core/ports/alert-store.js';
import { receiverUrlProblem } from '../core/alerts/receiver-url.js';
import type { OfferCatalog } from '../api/access/offers.js';
import { usageScope } from '../api/access/windows.js';
import { retryDelay, type RetryPolicy } from './retry-policy.js';
import { postEvent } from './sender.js';

export interface DelivererOptions {
  alerts: AlertStore;
  access: AccessStore;
  offers: OfferCatalog;
  policy: RetryPolicy;
  allowPrivateUrls: boolean;
  timeoutMs: number;
  logger: pino.Logger;
  now: () => number;
}

/** Wait before reading an unreachable alert store again. */
const STORE_RETRY_MS = 5_000;

/** One alert's loop: `woken` says a delivery may have been queued since it last looked. */
interface AlertLoop {
  woken: boolean;
  /** Ends the loop's current wait, if it waits. */
  interrupt: (() => void) | null;
  done: Promise<void>;
}

export class Deliverer {
  private readonly loops = new Map<string, AlertLoop>();
  private stopped = false;

  constructor(private readonly options: DelivererOptions) {}

  /** Starts the alert's loop if it is not running, or tells it to look at its queue again. */
  wake(alertId: string): void {
    if (this.stopped) return;
    const running = this.loops.get(alertId);
    if (running) {
      running.woken = true;
      running.interrupt?.();
      return;
    }
    const loop: AlertLoop = { woken: false, interrupt: null, done: Promise.resolve() };
    this.loops.set(alertId, loop);
    loop.done = this.run(alertId, loop);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const loops = [...this.loops.values()];
    for (const loop of loops) loop.interrupt?.();
    await Promise.all(loops.map((loop) => loop.done));
  }

  private sleep(loop: AlertLoop, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        loop.interrupt = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      loop.interrupt = done;
    });
  }

  /**
   * Delivers the queue's head until the queue is empty or the alert paused or deleted, then ends: the
   * follower wakes the alert again when it queues an event. The loop leaves the map synchronously as
   * it ends, so a wake() can never reach a loop that is about to end.
   */
  private async run(alertId: string, loop: AlertLoop): Promise<void> {
    const { alerts, logger, now } = this.options;
    try {
      while (!this.stopped) {
        loop.woken = false;
        let alert: Alert | null;
        let head: PendingDelivery | null;
        try {
          [alert, head] = await Promise.all([alerts.getAlert(alertId), alerts.nextDelivery(alertId)]);
        } catch (error) {
          logger.warn({ alert: alertId, err: (error as Error).message }, 'alert store unavailable; delivery loop waits');
          await this.sleep(loop, STORE_RETRY_MS);
          continue;
        }
        if (alert === null) {
          // Deleted while a page was being committed for it: what was queued goes too.
          if (head) await alerts.deleteAlert(alertId).catch(() => {});
          return;
        }
        if (head === null || alert.paused_at !== null) {
          if (loop.woken) continue;
          return;
        }
        const waitMs = head.next_try_at - now();
        if (waitMs > 0) {
          await this.sleep(loop, waitMs);
          continue;
        }
        await this.attempt(alert, head).catch((error: Error) => logger.warn({ alert: alertId, err: error.message }, 'delivery attempt not recorded; retried'));
      }
    } finally {
      if (this.loops.get(alertId) === loop) this.loops.delete(alertId);
    }
  }

  private async attempt(alert: Alert, delivery: PendingDelivery): Promise<void> {
    const { alerts, policy, now } = this.options;
    const startedAt = now();
    const firstAttemptAt = delivery.first_attempt_at ?? startedAt;
    // Past the quota nothing is sent: the delivery waits like a failed one, but the receiver is not
    // at fault, so the alert's health is left alone.
    const admitted = await this.countListing(alert, delivery, startedAt);
    const status = admitted ? await this.send(alert, delivery, startedAt) : null;
    const attempts = delivery.attempts + (admitted ? 1 : 0);
    const finishedAt = now();
    if (status !== null && status >= 200 && status < 300) {
      await alerts.finishDelivery(delivery, { ...this.record(delivery, finishedAt, status, attempts), outcome: 'delivered' });
      if (alert.failing_since !== null) await alerts.setAlertHealth(alert.id, { failing_since: null, paused_at: null });
      return;
    }
    if (finishedAt - firstAttemptAt >= policy.giveUpAfterMs) {
      await alerts.finishDelivery(delivery, { ...this.record(delivery, finishedAt, status, attempts), outcome: 'failed' });
    } else {
      const nextTry = finishedAt + retryDelay(policy, Math.max(1, attempts));
      await alerts.rescheduleDelivery({ ...delivery, attempts, first_attempt_at: firstAttemptAt, next_try_at: nextTry, last_status: status });
    }
    if (admitted) await this.recordFailure(alert, finishedAt);
  }

  private record(delivery: PendingDelivery, at: number, status: number | null, attempts: number) {
    return { event_id: delivery.event_id, type: delivery.type, listing_id: delivery.listing_id, at, status, attempts };
  }

  /** Marks the alert failing since its first failure, and pauses it once that is too long ago. */
  private async recordFailure(alert: Alert, at: number): Promise<void> {
    const failingSince = alert.failing_since ?? at;
    const paused = at - failingSince >= this.options.policy.pauseAfterMs;
    if (alert.failing_since === failingSince && !paused) return;
    await this.options.alerts.setAlertHealth(alert.id, { failing_since: failingSince, paused_at: paused ? at : null });
    if (paused) this.options.logger.warn({ alert: alert.id, account: alert.account_id }, 'alert paused: its deliveries failed for too long');
  }

  /** false when the account is gone or past its listing quota: the delivery waits. */
  private async countListing(alert: Alert, delivery: PendingDelivery, now: number): Promise<boolean> {
    const account = await this.options.access.getAccount(alert.account_id);
    const offer = account ? this.options.offers.get(account.offer) : undefined;
    if (!account || !offer) return false;
    const counted = await this.options.access.consumeListings(usageScope(account, offer, now), [delivery.listing_id], {
      day: offer.itemsPerDay,
      month: offer.itemsPerMonth,
    });
    return counted.refused === null;
  }

  private async send(alert: Alert, delivery: PendingDelivery, now: number): Promise<number | null> {
    // Checked again at each attempt: the receiver's name may resolve to another address by now.
    if (await receiverUrlProblem(alert.url, this.options.allowPrivateUrls)) return null;
    return postEvent(alert.url, delivery.body, alert.secret, now, this.options.timeoutMs);
  }
}
