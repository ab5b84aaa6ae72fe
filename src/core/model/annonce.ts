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
  current: z.number().describe('Latest price read, in euros.'),
  previous: z.number().nullable().describe('The price before it, in euros. Null when the price has not moved since tracking began (not missing data).'),
  changed_at: z.string().describe('Date of the last change (ISO 8601, UTC).'),
  changes: z.number().int().describe('Number of price changes since the first reading.'),
  tracked_since: z.string().describe('Date of the first reading (ISO 8601, UTC); tracking began on 2026-06-23.'),
  depth: z.number().int().describe('Number of prices this answer holds: 2 without the series, else the length of `points`.'),
  points: z
    .array(PricePoint)
    .optional()
    .describe("Every reading (`at`, `price` in euros), oldest first: only on a listing's detail, for offers with the price series; absent elsewhere."),
});
export type PriceHistory = z.infer<typeof PriceHistory>;

/** The listing a relisted listing follows (docs/deduplication.md "Relisted properties"). */
export const RelistedFrom = z.object({
  source: z.string().describe('Site of the earlier listing (a `/sources` id); the same site when it republished the property under a new reference.'),
  reference: z.string().describe("The earlier listing's reference on that site."),
  withdrawn_at: z.string().describe('When the earlier listing left the market (ISO 8601, UTC).'),
  price: z.number().nullable().describe("The earlier listing's last price in euros; null when it showed none."),
});
export type RelistedFrom = z.infer<typeof RelistedFrom>;

export const SourceRef = z.object({
  source: z.string().describe('A site of the group (a `/sources` id).'),
  reference: z.string().describe("The listing's reference on that site."),
  url: z.string().describe("The listing's page on that site."),
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
  source: z.string().describe('Site the listing comes from (a `/sources` id); on a grouped search, the best-ranked eligible site of the property.'),
  reference: z.string().max(128).describe("The listing's reference on that site (at most 128 characters); with `source`, its identity."),
  title: z
    .string()
    .describe('Title, redacted of telephone numbers and e-mail addresses; generated from the type, rooms, surface and city when the site gives none.'),
  type: z.string().describe('Kind of property: Appartement, Maison, Terrain, Parking, Local commercial, Immeuble, Bureau or Autre.'),
  transaction_type: z.enum(TRANSACTION_TYPES).describe('`vente` (sale) or `location` (rent).'),
  price: num.describe('Price in euros: the sale price, or the monthly rent for `location`. Null when the site shows no price.'),
  price_per_m2: num.describe('`price` / `surface` in euros per m², rounded to the euro. Null when either is unknown.'),
  price_per_m2_color: str.describe('Reserved: always null (no colour rule is defined; docs/api.md).'),
  price_label: str.describe('`price` written out in French (`350 000 €`, `950 €/mois` for a rent). Null when the price is unknown.'),
  surface: num.describe('Living surface in m². Null when unknown.'),
  land_surface: num.describe('Land surface in m². Null when unknown or without land.'),
  living_room_surface: num.describe('Living-room surface in m². Null when unknown.'),
  rooms: int.describe('Number of rooms (pièces). Null when unknown.'),
  bedrooms: int.describe('Number of bedrooms. Null when unknown.'),
  bathrooms: int.describe('Number of bathrooms. Null when unknown.'),
  shower_rooms: int.describe('Number of shower rooms. Null when unknown.'),
  toilets: int.describe('Number of toilets. Null when unknown.'),
  kitchen: str.describe('Kind of kitchen as the site words it. Null when unknown.'),
  year_built: int.describe('Year of construction. Null when unknown (filled on about a third of listings).'),
  elevator: bool.describe('Whether the building has an elevator. Null when unknown.'),
  parking: bool.describe('Whether a parking space comes with it. Null when unknown.'),
  parking_interior: bool.describe('Whether an indoor parking space comes with it. Null when unknown.'),
  parking_exterior: bool.describe('Whether an outdoor parking space comes with it. Null when unknown.'),
  cellar: bool.describe('Whether a cellar comes with it. Null when unknown.'),
  garden: bool.describe('Whether a garden comes with it. Null when unknown.'),
  exclusive: bool.describe('Whether the agency has an exclusive mandate. Null when unknown.'),
  seller_type: z.enum(['Pro', 'Particulier']).nullable().describe('`Pro` (an agency or a developer) or `Particulier` (a private seller). Null when unknown.'),
  seller_name: str.describe('Agency name. Null for a private seller, and when unknown.'),
  real_estate_network: str.describe('Agency network the seller belongs to. Null when none or unknown.'),
  city: str.describe('Official name of the commune. Null when the place is unknown.'),
  postal_code: str.describe('Postal code (5 digits). Null when unknown.'),
  department: str.describe('Department code (`75`, `2A`, `971`). Null when the place is unknown.'),
  region: str.describe('Region name. Null when the place is unknown.'),
  latitude: num.describe('Latitude in decimal degrees, rounded to 3 decimals (about 111 m). Null when unknown.'),
  longitude: num.describe('Longitude in decimal degrees, rounded to 3 decimals (about 111 m). Null when unknown.'),
  dpe: DpeLetter.nullable().describe('Energy class (DPE), `A` to `G`. Null when not given.'),
  ges: DpeLetter.nullable().describe('Greenhouse-gas class (GES), `A` to `G`. Null when not given.'),
  dpe_value: num.describe('Energy use in kWh/m²/year. Null when not given.'),
  ges_value: num.describe('Greenhouse-gas emissions in kg CO2/m²/year. Null when not given.'),
  dpe_chart_url: str.describe("URL of the site's DPE chart image. Null when none."),
  ges_chart_url: str.describe("URL of the site's GES chart image. Null when none."),
  legal_info: z
    .union([z.record(z.string(), z.unknown()), z.string()])
    .nullable()
    .describe('Legal mentions as the site gives them: an object or a text. Null when none.'),
  images: z.array(z.string()).describe("Photo URLs, in the site's order; empty when there is none."),
  images_count: z.number().int().describe('Number of photos (the length of `images`).'),
  description: str.describe('Description, redacted of telephone numbers and e-mail addresses. Null when the site gives none.'),
  external_url: z.string().describe("The listing's page on its site, where the seller can be reached."),
  video_url: str.describe('URL of a video. Null when none.'),
  virtual_tour_url: str.describe('URL of a virtual tour. Null when none.'),
  published_at: str.describe('Publication date on the site (ISO 8601 date-time, UTC). Null when the site does not give it.'),
  updated_at: str.describe('Date of the last collection pass that saw the listing (ISO 8601 date-time, UTC). Null when unknown.'),
  first_seen_at: z
    .string()
    .describe(
      'Since when the property has been on the market (ISO 8601 date-time, UTC): the earliest first collection of this listing, of its duplicates on other sites and of the listings it was relisted from. Time on market counts from here.',
    ),
  seller_contact: z.null().describe('Always null: no contact data is served (reach the seller through `external_url`).'),
  price_history: PriceHistory.nullable().describe(
    'Price readings since tracking began, continued from the earlier listing for a relisted one. Null while the listing has no price reading.',
  ),
  relisted_from: RelistedFrom.nullable().describe(
    'The withdrawn listing this one republishes: the same property back on the market within 90 days under a new reference, on the same site or another. Null when the listing is no relisting.',
  ),
  is_internal: z.boolean().describe('True for listings published by the service itself.'),
  dedup_key: str.describe("Stable identifier of the listing's duplicate group, the same on every site. Null when no duplicate is known."),
  sources: z.array(SourceRef).nullable().describe('One element per site of the duplicate group, the main site first. Null when no duplicate is known.'),
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
  source: z.string().describe('Site the listing comes from.'),
  reference: z.string().describe("The listing's reference on that site."),
  latitude: num.describe('Latitude in decimal degrees, rounded to 3 decimals. Null when unknown (such a listing is never in a box).'),
  longitude: num.describe('Longitude in decimal degrees, rounded to 3 decimals. Null when unknown.'),
  price: num.describe('Price in euros (monthly rent for `location`). Null when unknown.'),
  price_per_m2: num.describe('Euros per m². Null when the price or the surface is unknown.'),
  surface: num.describe('Living surface in m². Null when unknown.'),
  price_per_m2_color: str.describe('Reserved: always null.'),
  type: str.describe('Kind of property (Appartement, Maison...); never null for a listing of the catalogue.'),
  title: str.describe('Title of the listing; never null for a listing of the catalogue.'),
  city: str.describe('Commune. Null when the place is unknown.'),
  postal_code: str.describe('Postal code. Null when unknown.'),
  image: str.describe("The first photo's URL. Null when the listing has no photo."),
  rooms: int.describe('Number of rooms. Null when unknown.'),
  is_internal: z.boolean().describe('True for listings published by the service itself.'),
});
export type AnnonceMapPoint = z.infer<typeof AnnonceMapPoint>;
