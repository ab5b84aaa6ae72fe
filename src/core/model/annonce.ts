/**
 * The public listing model ("annonce" is French for listing; the API keeps French words where
 * docs/api.md uses them: annonce, retirees, vente, location, ville...).
 *
 * `Annonce` is the response shape of docs/api.md "Endpoints", in the documented order. It is a zod schema so the
 * presenters can be checked against it in tests; the HTTP path does not re-validate every item.
 */
import { z } from 'zod';

export const DPE_LETTERS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
export const DpeLetter = z.enum(DPE_LETTERS);
export type DpeLetter = z.infer<typeof DpeLetter>;

export const PROPERTY_TYPES = ['Appartement', 'Maison', 'Terrain', 'Parking', 'Local commercial', 'Immeuble', 'Bureau', 'Autre'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

export const TRANSACTION_TYPES = ['vente', 'location'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** Catalogue-side status of a site listing (docs/architecture.md). Only `active` is searchable. */
export const LISTING_STATUSES = ['active', 'vendue', 'sous_compromis', 'archivee', 'retiree'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

export const PricePoint = z.object({ at: z.string(), price: z.number() });
export type PricePoint = z.infer<typeof PricePoint>;

export const PriceHistory = z.object({
  current: z.number(),
  previous: z.number().nullable(),
  changed_at: z.string(),
  changes: z.number().int(),
  tracked_since: z.string(),
  depth: z.number().int(),
  points: z.array(PricePoint).optional(),
});
export type PriceHistory = z.infer<typeof PriceHistory>;

export const SourceRef = z.object({
  source: z.string(),
  reference: z.string(),
  url: z.string(),
  price: z.number().nullable().describe("That site's price in euros; null when the copies of the group show no price."),
  is_main: z.boolean().describe("True on the group's main site (the best-ranked site, first in the list), the same on every member's copy."),
});
export type SourceRef = z.infer<typeof SourceRef>;

const num = z.number().nullable();
const int = z.number().int().nullable();
const str = z.string().nullable();
const bool = z.boolean().nullable();

/** Every field of docs/api.md's Annonce table, in its order. `<field>_source` completions are extra keys. */
export const Annonce = z.object({
  source: z.string(),
  reference: z.string().max(128),
  title: z.string(),
  type: z.string(),
  transaction_type: z.enum(TRANSACTION_TYPES),
  price: num,
  price_per_m2: num,
  price_per_m2_color: str,
  price_label: str,
  surface: num,
  land_surface: num,
  living_room_surface: num,
  rooms: int,
  bedrooms: int,
  bathrooms: int,
  shower_rooms: int,
  toilets: int,
  kitchen: str,
  year_built: int,
  elevator: bool,
  parking: bool,
  parking_interior: bool,
  parking_exterior: bool,
  cellar: bool,
  garden: bool,
  exclusive: bool,
  seller_type: z.enum(['Pro', 'Particulier']).nullable(),
  seller_name: str,
  real_estate_network: str,
  city: str,
  postal_code: str,
  department: str,
  region: str,
  latitude: num,
  longitude: num,
  dpe: DpeLetter.nullable(),
  ges: DpeLetter.nullable(),
  dpe_value: num,
  ges_value: num,
  dpe_chart_url: str,
  ges_chart_url: str,
  legal_info: z.union([z.record(z.string(), z.unknown()), z.string()]).nullable(),
  images: z.array(z.string()),
  images_count: z.number().int(),
  description: str,
  external_url: z.string(),
  video_url: str,
  virtual_tour_url: str,
  published_at: str,
  updated_at: str,
  seller_contact: z.null(),
  price_history: PriceHistory.nullable(),
  is_internal: z.boolean(),
  dedup_key: str,
  sources: z.array(SourceRef).nullable(),
});
export type Annonce = z.infer<typeof Annonce>;

/** The order in which the presenter writes the fields (the documented order). */
export const ANNONCE_FIELDS = Object.keys(Annonce.shape) as (keyof Annonce)[];

/** Fields a duplicate may complete on another member (docs/deduplication.md); `<field>_source` names the site. */
export const COMPLETABLE_FIELDS = [
  'title',
  'description',
  'images',
  'surface',
  'land_surface',
  'living_room_surface',
  'rooms',
  'bedrooms',
  'bathrooms',
  'shower_rooms',
  'toilets',
  'kitchen',
  'year_built',
  'elevator',
  'parking',
  'parking_interior',
  'parking_exterior',
  'cellar',
  'garden',
  'dpe',
  'ges',
  'dpe_value',
  'ges_value',
  'latitude',
  'longitude',
] as const;

export const AnnonceMapPoint = z.object({
  source: z.string(),
  reference: z.string(),
  latitude: num,
  longitude: num,
  price: num,
  price_per_m2: num,
  surface: num,
  price_per_m2_color: str,
  type: str,
  title: str,
  city: str,
  postal_code: str,
  image: str,
  rooms: int,
  is_internal: z.boolean(),
});
export type AnnonceMapPoint = z.infer<typeof AnnonceMapPoint>;
