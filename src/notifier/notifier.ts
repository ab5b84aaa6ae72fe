/**
 * The notifier (npm run notifier, docs/operations.md): follows the flows (follower.ts) every poll
 * interval and delivers the alerts' queues (deliverer.ts). One notifier runs per deployment: it is
 * the only writer of positions and queues, which keeps each alert's deliveries in order.
 */
import type pino from 'pino';
import type { ListingReader } from '../core/ports/listing-reader.js';
import type { AccessStore } from '../core/ports/access-store.js';
import type { AlertStore } from '../core/ports/alert-store.js';
import type { OfferCatalog } from '../api/access/offers.js';
import { Deliverer } from './deliverer.js';
import { FLOWS, FlowFollower } from './follower.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
import { DELIVERY_TIMEOUT_MS } from './sender.js';

export interface NotifierOptions {
  listings: ListingReader;
  alerts: AlertStore;
  access: AccessStore;
  offers: OfferCatalog;
  logger: pino.Logger;
  settleMs: number;
  pollMs: number;
  allowPrivateUrls: boolean;
  pageSize?: number;
  policy?: RetryPolicy;
  timeoutMs?: number;
  now?: () => number;
}

/** Changes read per flow page: one commit per page. */
const DEFAULT_PAGE_SIZE = 500;

export class Notifier {
  private readonly follower: FlowFollower;
  private readonly deliverer: Deliverer;
  private running: Promise<void> | null = null;
  private stopped = false;
  private wakePoll: () => void = () => {};

  constructor(private readonly options: NotifierOptions) {
    const now = options.now ?? Date.now;
    this.follower = new FlowFollower({
      listings: options.listings,
      alerts: options.alerts,
      accounts: options.access,
      settleMs: options.settleMs,
      pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
      now,
    });
    this.deliverer = new Deliverer({
      alerts: options.alerts,
      access: options.access,
      offers: options.offers,
      policy: options.policy ?? DEFAULT_RETRY_POLICY,
      allowPrivateUrls: options.allowPrivateUrls,
      timeoutMs: options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
      logger: options.logger,
      now,
    });
  }

  /** Resumes every alert's queue, then follows the flows until stop(). */
  async start(): Promise<void> {
    for (const alert of await this.options.alerts.allAlerts()) this.deliverer.wake(alert.id);
    this.running = this.followLoop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakePoll();
    await this.running;
    await this.deliverer.stop();
  }

  /** Reads every flow up to date, then waits the poll interval. */
  private async followLoop(): Promise<void> {
    while (!this.stopped) {
      try {
        for (const flow of FLOWS) {
          for (let more = true; more && !this.stopped; ) {
            const step = await this.follower.step(flow);
            for (const alertId of step.alertIds) this.deliverer.wake(alertId);
            more = step.more;
          }
        }
      } catch (error) {
        this.options.logger.warn({ err: (error as Error).message }, 'notifier could not read or commit a flow page; retrying');
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.pollMs);
        this.wakePoll = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }
}
