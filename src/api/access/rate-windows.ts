/**
 * Per-second and per-minute windows of an account, with rate-limiter-flexible: RateLimiterRedis
 * when Redis holds the access data (every API server shares the windows), RateLimiterMemory on the
 * embedded backend (one process). These windows run on the wall clock, not the injected one: they
 * only ever matter over a second or a minute.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AccessUnavailableError } from '../../core/ports/access-store.js';
import type { Offer } from './offers.js';

export type RateWindowName = 'second' | 'minute';

export type RateOutcome = { refused: null; window: RateLimiterRes } | { refused: RateWindowName; retryAfterMs: number };

type LimiterFactory = (name: string, points: number, seconds: number) => RateLimiterAbstract;

export class RateWindows {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  private constructor(
    private readonly makeLimiter: LimiterFactory,
    private readonly backend: string,
  ) {}

  static inMemory(): RateWindows {
    return new RateWindows((name, points, duration) => new RateLimiterMemory({ keyPrefix: name, points, duration }), 'memory');
  }

  static onRedis(client: Redis, keyPrefix: string): RateWindows {
    return new RateWindows(
      (name, points, duration) =>
        new RateLimiterRedis({
          storeClient: client,
          keyPrefix: `${keyPrefix}rl:${name}`,
          points,
          duration,
          // Fail at once when the connection is down (503) rather than queueing.
          rejectIfRedisNotReady: true,
        }),
      'redis',
    );
  }

  /** Takes one request from the account's per-second window, then from its per-minute one (whose state is returned). */
  async take(offer: Offer, accountId: string): Promise<RateOutcome> {
    const second = await this.consume(offer, 'second', offer.perSecond, 1, accountId);
    if (second.refused) return second;
    return this.consume(offer, 'minute', offer.perMinute, 60, accountId);
  }

  /** The account's per-minute window as it stands, taking nothing from it (`/ping`); a fresh window when none is open. */
  async peek(offer: Offer, accountId: string): Promise<RateLimiterRes> {
    try {
      const window = await this.limiter(offer, 'minute', offer.perMinute, 60).get(accountId);
      return window ?? new RateLimiterRes(offer.perMinute, 60_000, 0, false);
    } catch (failure) {
      throw new AccessUnavailableError(this.backend, failure);
    }
  }

  private async consume(offer: Offer, name: RateWindowName, points: number, seconds: number, accountId: string): Promise<RateOutcome> {
    try {
      return { refused: null, window: await this.limiter(offer, name, points, seconds).consume(accountId) };
    } catch (rejection) {
      // rate-limiter-flexible rejects with a RateLimiterRes when the window is full, with an Error when its store fails.
      if (!(rejection instanceof RateLimiterRes)) throw new AccessUnavailableError(this.backend, rejection);
      return { refused: name, retryAfterMs: rejection.msBeforeNext };
    }
  }

  /** One limiter per offer and window: an offer change starts fresh windows with the new limits. */
  private limiter(offer: Offer, name: RateWindowName, points: number, seconds: number): RateLimiterAbstract {
    const id = `${name}:${offer.id}`;
    let limiter = this.limiters.get(id);
    if (!limiter) this.limiters.set(id, (limiter = this.makeLimiter(id, points, seconds)));
    return limiter;
  }
}
