/** Conversion between StoredListing and a row of the `listings` table. */
import { foldedKeysOf, relistedOf, visOf } from '../../../core/query/stored-keys.js';
import { listingId, type MapPointListing, type StoredListing } from '../../../core/model/stored.js';
import { blockKeyOf } from '../../../core/dedup/block-key.js';
import { presentAnnonce, presentMapPoint } from '../../../core/model/present.js';
import { featuresOf } from '../../../core/dedup/features.js';
import { decodeDoc, encodeDoc, type DocPart } from './doc-text.js';
export { blockKeyOf };

export interface ListingRow {
  rowid?: number;
  id: string;
  source: string;
  status: string;
  active: number;
  vis: number;
  entered_at: number;
  updated_at: number;
  published_at: number | null;
  changed_at: number;
  change_seq: number;
  left_market_at: number | null;
  transaction_type: string | null;
  type_norm: string | null;
  city_norm: string | null;
  postal_code: string | null;
  department: string | null;
  region_norm: string | null;
  price: number | null;
  price_per_m2: number | null;
  surface: number | null;
  rooms: number | null;
  bedrooms: number | null;
  year_built: number | null;
  dpe: string | null;
  ges: string | null;
  lat: number | null;
  lon: number | null;
  dedup_key: string | null;
  sites_ahead: string;
  block_key: string | null;
  content_hash: string;
  /** The own surface the duplicate scorer compares, 0 for none; null outside blocks (schema/migrations.ts addOwnSurfaceColumn). */
  own_surface: number | null;
  title: string | null;
  description: string | null;
  doc: string;
  points: string | null;
  /** JSON text of presentAnnonce(listing) (schema/migrations.ts addPresentedColumns). */
  public_json: string | null;
  /** JSON text of presentMapPoint(listing), for listings with coordinates (schema/migrations.ts addPresentedColumns). */
  map_json: string | null;
  /** 1 for a relisting (relisted_from set): the `relistee` filter (schema/migrations.ts addRelistedColumn). */
  relisted: number;
  /** StoredListing.absent_loads and absent_at, 0 for none (schema/migrations.ts addAbsenceColumns). */
  absent_loads: number;
  absent_at: number;
}

export function toRow(listing: StoredListing): ListingRow {
  const c = listing.content;
  const active = listing.status === 'active';
  const blockKey = blockKeyOf(listing);
  const annonce = presentAnnonce(listing);
  return {
    id: listing.id,
    source: c.source,
    status: listing.status,
    active: active ? 1 : 0,
    vis: visOf(listing),
    entered_at: listing.catalogue_entered_at,
    updated_at: listing.updated_at,
    published_at: listing.published_at,
    changed_at: listing.changed_at,
    change_seq: listing.change_seq,
    left_market_at: listing.left_market_at,
    transaction_type: c.transaction_type,
    postal_code: c.postal_code,
    department: c.department,
    ...foldedKeysOf(c),
    price: c.price,
    price_per_m2: c.price_per_m2,
    surface: c.surface,
    rooms: c.rooms,
    bedrooms: c.bedrooms,
    year_built: c.year_built,
    dpe: c.dpe,
    ges: c.ges,
    lat: c.latitude,
    lon: c.longitude,
    dedup_key: listing.dedup_key,
    sites_ahead: listing.group_sites_ahead.length ? `,${listing.group_sites_ahead.join(',')},` : '',
    block_key: blockKey,
    content_hash: listing.content_hash,
    own_surface: active && blockKey !== null ? (featuresOf(listing).surface ?? 0) : null,
    title: c.title,
    description: c.description,
    doc: encodeDoc(listing, annonce),
    points: listing.price_points.length ? JSON.stringify(listing.price_points) : null,
    public_json: JSON.stringify(annonce),
    map_json: c.latitude !== null && c.longitude !== null ? JSON.stringify(presentMapPoint(listing)) : null,
    relisted: relistedOf(listing) ? 1 : 0,
    absent_loads: listing.absent_loads ?? 0,
    absent_at: listing.absent_at ?? 0,
  };
}

export function fromRow(row: ListingRow): StoredListing {
  const doc = decodeDoc(row.doc, row.public_json);
  return {
    id: row.id,
    content: doc.content,
    completed_from: doc.completed_from,
    status: row.status as StoredListing['status'],
    catalogue_entered_at: row.entered_at,
    updated_at: row.updated_at,
    published_at: row.published_at,
    changed_at: row.changed_at,
    change_seq: row.change_seq,
    left_market_at: row.left_market_at,
    has_photos: doc.has_photos,
    dedup_key: row.dedup_key,
    group_sites_ahead: doc.group_sites_ahead,
    group_members: doc.group_members,
    price_points: row.points ? JSON.parse(row.points) : [],
    content_hash: row.content_hash,
    ...(doc.relisted_from ? { relisted_from: doc.relisted_from } : {}),
    ...(doc.first_seen_at !== undefined ? { first_seen_at: doc.first_seen_at } : {}),
    ...absentLoadsOf(row),
  };
}

/** StoredListing.absent_loads and absent_at of a row: the fields only while a count runs. */
function absentLoadsOf(row: { absent_loads?: number; absent_at?: number }): Pick<StoredListing, 'absent_loads' | 'absent_at'> {
  return row.absent_loads ? { absent_loads: row.absent_loads, absent_at: row.absent_at ?? 0 } : {};
}

/** A row of a result page: the change position and sort keys, and the precomputed Annonce text instead of `doc`. */
export type PageRow = Omit<ListingRow, 'doc' | 'public_json'> & { public_json: Buffer | null };

/**
 * The listing of a result page served from its precomputed text: what the routes read (id, change
 * position, statuses, dates, `public_json`) comes from the row; the parts of `doc` (content, group
 * fields) are read and parsed only if some code asks for them, which the page routes do not.
 *
 * A class with its lazy getters on the prototype, not per-object property definitions: a page
 * builds 25 to 100 of these per request, and `Object.defineProperties` with closures on each one
 * cost about 7 % of a search request's CPU (npm run bench -- --scenario search --profile).
 */
export class PageListing {
  readonly id: string;
  readonly status: StoredListing['status'];
  readonly catalogue_entered_at: number;
  readonly updated_at: number;
  readonly published_at: number | null;
  readonly changed_at: number;
  readonly change_seq: number;
  readonly left_market_at: number | null;
  readonly dedup_key: string | null;
  readonly content_hash: string;
  readonly absent_loads?: number;
  readonly public_json: Buffer;
  private readonly points: string | null;
  private doc: DocPart | undefined;

  constructor(
    row: PageRow,
    public_json: Buffer,
    private readonly readDoc: (id: string) => string,
  ) {
    this.id = row.id;
    this.status = row.status as StoredListing['status'];
    this.catalogue_entered_at = row.entered_at;
    this.updated_at = row.updated_at;
    this.published_at = row.published_at;
    this.changed_at = row.changed_at;
    this.change_seq = row.change_seq;
    this.left_market_at = row.left_market_at;
    this.dedup_key = row.dedup_key;
    this.content_hash = row.content_hash;
    if (row.absent_loads) this.absent_loads = row.absent_loads;
    this.public_json = public_json;
    this.points = row.points;
  }

  get price_points(): StoredListing['price_points'] {
    return this.points ? JSON.parse(this.points) : [];
  }
  get content(): StoredListing['content'] {
    return this.loaded().content;
  }
  get completed_from(): StoredListing['completed_from'] {
    return this.loaded().completed_from;
  }
  get has_photos(): boolean {
    return this.loaded().has_photos;
  }
  get group_sites_ahead(): string[] {
    return this.loaded().group_sites_ahead;
  }
  get group_members(): StoredListing['group_members'] {
    return this.loaded().group_members;
  }
  get relisted_from(): StoredListing['relisted_from'] {
    return this.loaded().relisted_from;
  }
  get first_seen_at(): number | undefined {
    return this.loaded().first_seen_at;
  }

  private loaded(): DocPart {
    return (this.doc ??= decodeDoc(this.readDoc(this.id), this.public_json));
  }
}

/**
 * A listing of a search page read from the sort index and its precomputed text alone: the search
 * route reads `id` and `public_json`, and the cursor the sort key, all three in the index entry or
 * the text. Every other field is read from the listing's row on first use (`load`), which the route
 * never does: reading the narrow rows of a page costs as much CPU as reading their texts, several
 * times what finding the rows in the index costs.
 */
export class IndexedPageListing implements StoredListing {
  private listing: StoredListing | undefined;

  constructor(
    readonly id: string,
    readonly public_json: Buffer,
    private readonly load: () => StoredListing,
  ) {}

  get content(): StoredListing['content'] {
    return this.full().content;
  }
  get completed_from(): StoredListing['completed_from'] {
    return this.full().completed_from;
  }
  get status(): StoredListing['status'] {
    return this.full().status;
  }
  get catalogue_entered_at(): number {
    return this.full().catalogue_entered_at;
  }
  get updated_at(): number {
    return this.full().updated_at;
  }
  get published_at(): number | null {
    return this.full().published_at;
  }
  get changed_at(): number {
    return this.full().changed_at;
  }
  get change_seq(): number {
    return this.full().change_seq;
  }
  get left_market_at(): number | null {
    return this.full().left_market_at;
  }
  get has_photos(): boolean {
    return this.full().has_photos;
  }
  get dedup_key(): string | null {
    return this.full().dedup_key;
  }
  get group_sites_ahead(): string[] {
    return this.full().group_sites_ahead;
  }
  get group_members(): StoredListing['group_members'] {
    return this.full().group_members;
  }
  get price_points(): StoredListing['price_points'] {
    return this.full().price_points;
  }
  get content_hash(): string {
    return this.full().content_hash;
  }
  get relisted_from(): StoredListing['relisted_from'] {
    return this.full().relisted_from;
  }
  get first_seen_at(): number | undefined {
    return this.full().first_seen_at;
  }
  get absent_loads(): number | undefined {
    return this.full().absent_loads;
  }
  get absent_at(): number | undefined {
    return this.full().absent_at;
  }

  private full(): StoredListing {
    return (this.listing ??= this.load());
  }
}

/** A page row as a StoredListing (PageListing) when its precomputed text is present. */
export function fromPageRow(row: PageRow, public_json: Buffer, readDoc: (id: string) => string): StoredListing {
  return new PageListing(row, public_json, readDoc) satisfies StoredListing;
}

/**
 * A map point served from its precomputed text (`map_json`, read from the covering index
 * ix_map_points): the route copies the bytes; the id and content are parsed from the text only if
 * some code asks for them, which the map route does not.
 */
export class MapTextListing implements MapPointListing {
  private point: ReturnType<typeof presentMapPoint> | undefined;

  constructor(readonly map_json: Buffer) {}

  get id(): string {
    return listingId(this.parsed().source, this.parsed().reference);
  }

  get content(): StoredListing['content'] {
    const { image, ...point } = this.parsed();
    return { ...point, images: image === null ? [] : [image] } as unknown as StoredListing['content'];
  }

  private parsed(): ReturnType<typeof presentMapPoint> {
    return (this.point ??= JSON.parse(this.map_json.toString('utf8')) as ReturnType<typeof presentMapPoint>);
  }
}
