/**
 * What a group gives each of its members (docs/deduplication.md, docs/api.md Annonce):
 * - `group_members`: the group's site listings best-ranked site first (`sources[]`), null alone;
 * - `group_sites_ahead`: the sites ranked above this member; every member is active (a listing that
 *   leaves the market leaves its group), so when the reference listing leaves, the next site becomes
 *   the reference. A grouped search with site filters uses it to pick the best-ranked eligible site;
 * - completion: a description, title, photos or characteristic (COMPLETABLE_FIELDS) missing on the
 *   member is taken from the best-ranked member that has it, and `completed_from[field]` names that
 *   site (`<field>_source`). `images_count` and `has_photos` follow the completed photos, so a listing
 *   without photos of its own becomes searchable when a duplicate has some.
 * - `first_seen_at`: the earliest own first-seen of the members (each one's first collection, or the
 *   first-seen of the listing it was relisted from: lineageFirstSeen), the same on every member, so
 *   the time on market of a property counts from its first appearance on any of its sites.
 * Members come in with their OWN content (own-content.ts); the stored content_hash, which is the hash
 * of the listing's own content, is left alone.
 */
import { COMPLETABLE_FIELDS } from '../../src/core/model/annonce.js';
import type { SiteCatalog } from '../../src/core/model/sites.js';
import { firstSeenOf, lineageFirstSeen, type ListingContent, type StoredListing } from '../../src/core/model/stored.js';
import { isMissing, withOwnContent } from './own-content.js';

export type GroupFields = Pick<StoredListing, 'content' | 'completed_from' | 'has_photos' | 'dedup_key' | 'group_sites_ahead' | 'group_members'> & {
  first_seen_at: number;
};

/** What groupFields reads of a member. */
export type GroupMemberListing = Pick<StoredListing, 'id' | 'content' | 'catalogue_entered_at' | 'relisted_from'>;

/** Members best-ranked site first (a group holds one listing per site; the id settles anything else). */
export function rankMembers<T extends Pick<StoredListing, 'id' | 'content'>>(members: readonly T[], sites: SiteCatalog): T[] {
  return [...members].sort((a, b) => sites.rank(a.content.source, b.content.source) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Group fields of each member of one group, in the order of `ranked` (best-ranked first, own content).
 * A group of one is a listing without a known duplicate: key null, no sources, no completion.
 */
export function groupFields(ranked: readonly GroupMemberListing[], key: string | null): GroupFields[] {
  if (ranked.length < 2) {
    return ranked.map((m) => ({
      content: m.content,
      completed_from: {},
      has_photos: m.content.images.length > 0,
      dedup_key: null,
      group_sites_ahead: [],
      group_members: null,
      first_seen_at: lineageFirstSeen(m),
    }));
  }
  const firstSeen = Math.min(...ranked.map(lineageFirstSeen));
  const members = ranked.map((m) => ({ source: m.content.source, reference: m.content.reference, url: m.content.external_url, price: m.content.price }));
  return ranked.map((member, rank) => {
    const { content, completedFrom } = complete(
      member.content,
      ranked.filter((other) => other !== member),
    );
    return {
      content,
      completed_from: completedFrom,
      has_photos: content.images.length > 0,
      dedup_key: key,
      group_sites_ahead: ranked.slice(0, rank).map((m) => m.content.source),
      group_members: members,
      first_seen_at: firstSeen,
    };
  });
}

/**
 * Group fields of a listing outside any group (inactive, or without a block): its own content only.
 * A listing that left the market keeps the first-seen of the group it left: a relisting of it
 * continues from there (indexer/relisting.ts).
 */
export function ungroupedFields(listing: StoredListing): GroupFields {
  const own = withOwnContent(listing);
  return {
    content: own.content,
    completed_from: {},
    has_photos: own.has_photos,
    dedup_key: null,
    group_sites_ahead: [],
    group_members: null,
    first_seen_at: listing.status === 'active' ? lineageFirstSeen(listing) : firstSeenOf(listing),
  };
}

/** Fills the member's missing completable fields from the first donor (best-ranked first) that has them. */
export function complete(
  own: ListingContent,
  donors: readonly Pick<StoredListing, 'content'>[],
): { content: ListingContent; completedFrom: Record<string, string> } {
  const completedFrom: Record<string, string> = {};
  let content: Record<string, unknown> | null = null;
  for (const field of COMPLETABLE_FIELDS) {
    if (!isMissing(own[field])) continue;
    const donor = donors.find((d) => !isMissing(d.content[field]));
    if (!donor) continue;
    content ??= { ...own };
    content[field] = donor.content[field];
    completedFrom[field] = donor.content.source;
  }
  if (!content) return { content: own, completedFrom };
  content.images_count = (content.images as unknown[]).length;
  return { content: content as unknown as ListingContent, completedFrom };
}

/** Whether the public output of the group fields differs (what the feed must redeliver). */
export function publicGroupOutputDiffers(before: GroupFields, after: GroupFields): boolean {
  if (before.dedup_key !== after.dedup_key) return true;
  if (before.first_seen_at !== after.first_seen_at) return true;
  if (!sameJson(before.group_members, after.group_members)) return true;
  if (!sameJson(before.completed_from, after.completed_from)) return true;
  for (const field of Object.keys(after.completed_from)) {
    if (!sameJson((before.content as unknown as Record<string, unknown>)[field], (after.content as unknown as Record<string, unknown>)[field])) return true;
  }
  return false;
}

/** Whether anything the store keeps for the group differs (internal fields included). */
export function groupFieldsDiffer(before: GroupFields, after: GroupFields): boolean {
  return publicGroupOutputDiffers(before, after) || !sameJson(before.group_sites_ahead, after.group_sites_ahead) || before.has_photos !== after.has_photos;
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
