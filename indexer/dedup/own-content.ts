/**
 * A stored listing's content is its own content plus what completion took from other members of its
 * group (`completed_from` names those fields). Scoring and completion must always start again from the
 * listing's OWN values, otherwise a value borrowed from a duplicate would later look like evidence
 * that the two are duplicates, and a field could never be "un-completed" when the group changes.
 *
 * A field is only ever completed when it was missing, so undoing a completion is resetting the field
 * to its empty value.
 */
import type { COMPLETABLE_FIELDS } from '../../src/core/model/annonce.js';
import type { ListingContent, StoredListing } from '../../src/core/model/stored.js';

export type CompletableField = (typeof COMPLETABLE_FIELDS)[number];

/** Missing: null, an empty string or an empty list (a site that shows no photo writes `[]`). */
export function isMissing(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

/** The value a field has when its own site did not give it. */
export function emptyValue(field: CompletableField): unknown {
  if (field === 'images') return [];
  // title is not nullable in the Annonce (the normaliser always builds one); empty is its "missing".
  if (field === 'title') return '';
  return null;
}

/** The listing's own content: completed fields reset to empty, images_count following images. */
export function ownContent(listing: Pick<StoredListing, 'content' | 'completed_from'>): ListingContent {
  const fields = Object.keys(listing.completed_from);
  if (fields.length === 0) return listing.content;
  const own = { ...listing.content } as Record<string, unknown>;
  for (const field of fields) own[field] = emptyValue(field as CompletableField);
  own.images_count = (own.images as unknown[]).length;
  return own as unknown as ListingContent;
}

/** The listing as its own site wrote it: no completion, has_photos from its own images. */
export function withOwnContent(listing: StoredListing): StoredListing {
  if (Object.keys(listing.completed_from).length === 0) return listing;
  const content = ownContent(listing);
  return { ...listing, content, completed_from: {}, has_photos: content.images.length > 0 };
}
