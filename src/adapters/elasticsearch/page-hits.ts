/**
 * The listings of a result page (search, feed, withdrawn) from hits read without `_source`
 * (read-model.ts PRESENTED_PAGE_FIELDS): each is its Annonce text plus what the routes read beside
 * it (id, status, withdrawal date). A hit of an older document has no current text: those few are
 * read whole in one mget and presented by the caller, so a page is right whatever the index holds.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { StoredListing } from '../../core/model/stored.js';
import { ABSENT_LOADS_FIELD, epochMillisOf, publicJsonOf } from './read-model.js';

/**
 * A listing served from its precomputed Annonce text. The page routes read `id`, `public_json`,
 * `status`, `left_market_at` and `absent_loads` (the withdrawn flow's reason), a flow's follower the change position; anything else was not
 * fetched and throws, so that a caller that
 * needs whole listings (the indexer) reads them with get, getMany or catalogue instead of silently
 * getting placeholders.
 */
export class PresentedListing implements StoredListing {
  constructor(
    readonly id: string,
    readonly public_json: Buffer,
    readonly status: StoredListing['status'],
    readonly changed_at: number,
    readonly change_seq: number,
    readonly left_market_at: number | null,
    readonly absent_loads?: number,
  ) {}

  get content(): never {
    return notRead('content');
  }
  get completed_from(): never {
    return notRead('completed_from');
  }
  get catalogue_entered_at(): never {
    return notRead('catalogue_entered_at');
  }
  get updated_at(): never {
    return notRead('updated_at');
  }
  get published_at(): never {
    return notRead('published_at');
  }
  get has_photos(): never {
    return notRead('has_photos');
  }
  get dedup_key(): never {
    return notRead('dedup_key');
  }
  get group_sites_ahead(): never {
    return notRead('group_sites_ahead');
  }
  get group_members(): never {
    return notRead('group_members');
  }
  get price_points(): never {
    return notRead('price_points');
  }
  get content_hash(): never {
    return notRead('content_hash');
  }
}

function notRead(field: string): never {
  throw new Error(`${field} is not read with a result page on Elasticsearch: read whole listings with get, getMany or catalogue`);
}

/**
 * The page's listings in hit order: presented from their texts, and the others (documents of an
 * older form) from `readWhole`, which reads them from `_source`.
 */
export async function listingsOfHits(hits: estypes.SearchHit[], readWhole: (ids: string[]) => Promise<Map<string, StoredListing>>): Promise<StoredListing[]> {
  const older: string[] = [];
  const listings: (StoredListing | null)[] = hits.map((hit) => {
    const fields = hit.fields as Record<string, unknown[]> | undefined;
    const text = publicJsonOf(fields);
    if (text === null) {
      older.push(hit._id!);
      return null;
    }
    const status = fields?.status?.[0] as StoredListing['status'];
    const changedAt = epochMillisOf(fields, 'changed_at') ?? 0;
    const changeSeq = Number(fields?.change_seq?.[0] ?? 0);
    // Asked by the withdrawn flow only (withdrawn-body.ts); absent elsewhere, and while no count runs.
    const absentLoads = Number(fields?.[ABSENT_LOADS_FIELD]?.[0] ?? 0) || undefined;
    return new PresentedListing(hit._id!, text, status, changedAt, changeSeq, epochMillisOf(fields, 'left_market_at'), absentLoads);
  });
  if (older.length === 0) return listings as StoredListing[];
  const whole = await readWhole(older);
  return listings.flatMap((listing, i) => {
    if (listing) return [listing];
    // A document deleted between the search and the mget is left out, as a later page would.
    const found = whole.get(hits[i]._id!);
    return found ? [found] : [];
  });
}
