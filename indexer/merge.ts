/**
 * Merges one normalised record with the stored state of its (source, reference):
 * - `catalogue_entered_at` is the collected_at of the first record ever written, and never moves;
 * - an older collection pass than the stored one is stale and changes nothing;
 * - the same content seen again is `unchanged` (so loading a file twice changes nothing), unless
 *   snapshot loads had counted the listing absent: any record of it clears that count;
 * - `changed_at` / `change_seq` move only when the public content or the status changed.
 */
import { createHash } from 'node:crypto';
import type { StoredListing } from '../src/core/model/stored.js';
import { firstSeenOf, listingId } from '../src/core/model/stored.js';
import type { NormalisedRecord } from './normalise.js';
import { applyPriceReading } from './price-history.js';

export type MergeOutcome = { kind: 'stale' } | { kind: 'unchanged' } | { kind: 'write'; listing: StoredListing; contentChanged: boolean };

/** Hash of what a re-collection may change, except the collection time itself. */
export function contentHash(record: NormalisedRecord): string {
  const { updated_at: _collected, ...rest } = record.content;
  return createHash('sha1').update(JSON.stringify(rest)).update(record.status).digest('base64url');
}

export interface MergeClock {
  /** Wall-clock time of this write. */
  now: number;
  /** Next change sequence number (monotonic). */
  nextChangeSeq(): number;
}

/** `hash`: contentHash(record), when the caller has it already (the parse worker computes it). */
export function mergeRecord(record: NormalisedRecord, existing: StoredListing | undefined, clock: MergeClock, hash = contentHash(record)): MergeOutcome {
  if (existing && record.collectedAt < existing.updated_at) return { kind: 'stale' };
  // A listing counted absent by snapshot loads is seen again: written, to clear its count (absent_loads is left out below).
  if (existing && record.collectedAt === existing.updated_at && hash === existing.content_hash && !existing.absent_loads) return { kind: 'unchanged' };

  const pricePoints = applyPriceReading(existing?.price_points ?? [], record.content.price, record.collectedAt);
  const contentChanged = !existing || hash !== existing.content_hash || pricePoints !== existing.price_points;
  const wasActive = existing ? existing.status === 'active' : true;
  const isActive = record.status === 'active';
  const leftMarketAt = isActive ? null : wasActive || !existing?.left_market_at ? record.collectedAt : existing.left_market_at;

  const listing: StoredListing = {
    id: listingId(record.content.source, record.content.reference),
    content: record.content,
    completed_from: {},
    status: record.status,
    catalogue_entered_at: existing?.catalogue_entered_at ?? record.collectedAt,
    updated_at: record.collectedAt,
    published_at: record.publishedAt,
    changed_at: contentChanged ? clock.now : existing!.changed_at,
    change_seq: contentChanged ? clock.nextChangeSeq() : existing!.change_seq,
    left_market_at: leftMarketAt,
    has_photos: record.content.images.length > 0,
    // Group fields are kept until the grouping stage recomputes them.
    dedup_key: existing?.dedup_key ?? null,
    group_sites_ahead: existing?.group_sites_ahead ?? [],
    group_members: existing?.group_members ?? null,
    price_points: [...pricePoints],
    content_hash: hash,
    // Decided once, when the listing is first written (relisting.ts), then kept.
    ...(existing?.relisted_from ? { relisted_from: existing.relisted_from } : {}),
    // The grouping stage moves it to the group's earliest (group-output.ts).
    first_seen_at: existing ? firstSeenOf(existing) : record.collectedAt,
  };
  return { kind: 'write', listing, contentChanged };
}
