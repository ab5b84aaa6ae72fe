/**
 * When a failed delivery is tried again, when it is given up, and when a failing alert is paused
 * (docs/api.md "Alerts"): exponential backoff with jitter, so that receivers coming back after an
 * outage are not hit by every notifier retry in the same second.
 */
export interface RetryPolicy {
  /** Wait after the first failure; doubled at each further failure, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A delivery still failing this long after its first attempt is given up (logged as failed). */
  giveUpAfterMs: number;
  /** An alert whose deliveries fail this long without a success is paused. */
  pauseAfterMs: number;
}

const HOUR_MS = 3_600_000;

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelayMs: 10_000,
  maxDelayMs: HOUR_MS,
  giveUpAfterMs: 24 * HOUR_MS,
  pauseAfterMs: 72 * HOUR_MS,
};

/** Delay before the next attempt, after `failures` failed ones: half fixed, half random ("equal jitter"). */
export function retryDelay(policy: RetryPolicy, failures: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(failures - 1, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
