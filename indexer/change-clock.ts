/**
 * The positions a writer gives its changes: change_seq from the store's highest, one by one, and
 * changed_at from the writer's clock, but never before the latest changed_at the store holds. The
 * feed and the withdrawn flow are ordered by (changed_at, change_seq): a writer whose clock is behind
 * the previous writer's would otherwise write its changes behind the cursors of mirrors that already
 * passed that time, and they would never be delivered. A clock ahead only delays delivery (the
 * settle delay is counted on the API's clock), it loses nothing.
 */
import type { ListingIndex } from '../src/core/ports/listing-index.js';
import type { MergeClock } from './merge.js';

/** Reads where the store's changes stand; call it holding the writer lock. Each call stamps a batch. */
export async function startChangeClock(store: Pick<ListingIndex, 'maxChangeSeq' | 'maxChangedAt'>, now: () => number): Promise<() => MergeClock> {
  let changeSeq = await store.maxChangeSeq();
  let changedAt = await store.maxChangedAt();
  return () => {
    changedAt = Math.max(now(), changedAt);
    return { now: changedAt, nextChangeSeq: () => ++changeSeq };
  };
}
