/**
 * The `doc` text of a listing (listing_texts): what the store needs, beside the row's columns and
 * the Annonce text (`public_json`, listing_annonces), to give back the whole StoredListing.
 *
 * The Annonce already holds every content field the presenter copied as it is, so the document
 * keeps only the content that differs from it or is missing from it (`own`: a private seller's name,
 * which the Annonce hides; `absent`: fields the content does not have) and the group fields, but
 * not the members of a group the Annonce lists as its `sources`. The
 * whole content in the document was a second copy of the Annonce's text, the largest part of the
 * store after the Annonce itself (docs/architecture.md, the read model).
 *
 * Both texts are always written together (ListingWrites.writeRow, the reindex of the Annonce texts),
 * so a document is read against the Annonce it was written with. A document of the older form
 * (`content`, the whole content) is read as it is; its listing's next write gives the new form.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Annonce } from '../../../core/model/annonce.js';
import { CONTENT_FIELDS, type ListingContent, type StoredListing } from '../../../core/model/stored.js';

/** The group and completion fields, kept as they are in both forms; the relisting fields, absent from older documents. */
interface GroupPart {
  completed_from: StoredListing['completed_from'];
  group_members: StoredListing['group_members'];
  group_sites_ahead: string[];
  has_photos: boolean;
  relisted_from?: StoredListing['relisted_from'];
  first_seen_at?: number;
}

interface DocText extends Omit<GroupPart, 'group_members'> {
  /** Content values the Annonce does not hold as they are, and content fields the Annonce does not name. */
  own: Record<string, unknown>;
  /** Content fields the listing does not have (the Annonce shows them as null). */
  absent?: string[];
  /** Absent when the Annonce's `sources` list the members (a group of two or more). */
  group_members?: StoredListing['group_members'];
}

/** The document of older stores: the whole content. */
interface WholeDocText extends GroupPart {
  content: ListingContent;
}

/** The part of a StoredListing its document gives back. */
export type DocPart = GroupPart & { content: ListingContent };

const CONTENT_FIELD_SET: ReadonlySet<string> = new Set(CONTENT_FIELDS);

/**
 * The document of `listing` whose Annonce is `annonce` (the object serialised as `public_json`):
 * a content value is left out when it is the very value the Annonce holds under its name.
 */
export function encodeDoc(listing: StoredListing, annonce: Annonce): string {
  const content = listing.content as unknown as Record<string, unknown>;
  const shown = annonce as unknown as Record<string, unknown>;
  const own: Record<string, unknown> = {};
  const absent: string[] = [];
  for (const field of CONTENT_FIELDS) {
    const value = content[field];
    if (value === undefined) absent.push(field);
    else if (value !== shown[field]) own[field] = value;
  }
  for (const field in content) if (!CONTENT_FIELD_SET.has(field) && content[field] !== undefined) own[field] = content[field];
  const fromSources = membersFromSources(annonce.sources);
  // Left out only when reading them back from `sources` gives exactly these members.
  const membersShown = fromSources !== null && isDeepStrictEqual(fromSources, listing.group_members);
  const doc: DocText = {
    own,
    ...(absent.length > 0 ? { absent } : {}),
    completed_from: listing.completed_from,
    ...(membersShown ? {} : { group_members: listing.group_members }),
    group_sites_ahead: listing.group_sites_ahead,
    has_photos: listing.has_photos,
    // The Annonce shows them presented (ISO dates, no earlier first-seen): kept here as stored.
    ...(listing.relisted_from ? { relisted_from: listing.relisted_from } : {}),
    ...(listing.first_seen_at !== undefined ? { first_seen_at: listing.first_seen_at } : {}),
  };
  return JSON.stringify(doc);
}

/** The group's members as the Annonce's `sources` list them (present.ts presentSources), without `is_main`. */
function membersFromSources(sources: Annonce['sources']): StoredListing['group_members'] {
  return sources === null ? null : sources.map(({ source, reference, url, price }) => ({ source, reference, url, price }));
}

/** The content and group fields from a document and the Annonce text written with it. */
export function decodeDoc(docText: string, annonceText: string | Buffer | null): DocPart {
  const doc = JSON.parse(docText) as DocText | WholeDocText;
  if ('content' in doc) return doc;
  if (annonceText === null) throw new Error('a listing document without its Annonce text');
  const annonce = JSON.parse(typeof annonceText === 'string' ? annonceText : annonceText.toString('utf8')) as Record<string, unknown>;
  const absent = new Set(doc.absent);
  const content: Record<string, unknown> = {};
  for (const field of CONTENT_FIELDS) {
    if (field in doc.own) content[field] = doc.own[field];
    else if (!absent.has(field)) content[field] = annonce[field];
  }
  for (const field in doc.own) if (!CONTENT_FIELD_SET.has(field)) content[field] = doc.own[field];
  return {
    content: content as unknown as ListingContent,
    completed_from: doc.completed_from,
    group_members: doc.group_members !== undefined ? doc.group_members : membersFromSources((annonce.sources ?? null) as Annonce['sources']),
    group_sites_ahead: doc.group_sites_ahead,
    has_photos: doc.has_photos,
    ...(doc.relisted_from ? { relisted_from: doc.relisted_from } : {}),
    ...(doc.first_seen_at !== undefined ? { first_seen_at: doc.first_seen_at } : {}),
  };
}
