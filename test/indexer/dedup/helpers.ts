/** StoredListing builders for the deduplication unit tests: one flat, written the way a site would. */
import type { ListingContent, StoredListing } from '../../../src/core/model/stored.js';
import { featuresOf, type Features } from '../../../src/core/dedup/features.js';

const DESCRIPTION =
  "À vendre à Lyon, appartement de 3 pièces de 65 m² situé au 2e étage d'un immeuble ancien. " +
  "Il se compose d'une entrée, d'un séjour lumineux, d'une cuisine équipée, de 2 chambres et d'une salle de bains. " +
  'Les plus : balcon, parquet ancien et cave. Proche commerces et transports.';

export function content(overrides: Partial<ListingContent> = {}): ListingContent {
  const source = overrides.source ?? 'seloger';
  const reference = overrides.reference ?? 'A1';
  return {
    source,
    reference,
    title: 'Appartement 3 pièces 65 m²',
    type: 'Appartement',
    transaction_type: 'vente',
    price: 320_000,
    price_per_m2: 4923,
    price_per_m2_color: null,
    price_label: '320 000 €',
    surface: 65,
    land_surface: null,
    living_room_surface: null,
    rooms: 3,
    bedrooms: 2,
    bathrooms: 1,
    shower_rooms: null,
    toilets: 1,
    kitchen: 'équipée',
    year_built: 1930,
    elevator: true,
    parking: null,
    parking_interior: null,
    parking_exterior: null,
    cellar: true,
    garden: null,
    exclusive: null,
    seller_type: 'Pro',
    seller_name: 'Agence du Parc',
    real_estate_network: null,
    city: 'Lyon',
    postal_code: '69003',
    department: '69',
    region: 'Auvergne-Rhône-Alpes',
    latitude: 45.751,
    longitude: 4.868,
    dpe: 'D',
    ges: 'C',
    dpe_value: 212,
    ges_value: 24,
    dpe_chart_url: null,
    ges_chart_url: null,
    legal_info: null,
    images: [`https://img.${source}.example/${reference}-1.jpg`],
    images_count: 1,
    description: DESCRIPTION,
    external_url: `https://www.${source}.example/${reference}`,
    video_url: null,
    virtual_tour_url: null,
    published_at: '2026-10-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    is_internal: false,
    ...overrides,
  };
}

export function stored(overrides: Partial<ListingContent> = {}, fields: Partial<StoredListing> = {}): StoredListing {
  const c = content(overrides);
  return {
    id: `${c.source}:${c.reference}`,
    content: c,
    completed_from: {},
    status: 'active',
    catalogue_entered_at: Date.parse('2026-11-01T00:00:00Z'),
    updated_at: Date.parse('2026-11-01T00:00:00Z'),
    published_at: null,
    changed_at: 1,
    change_seq: 1,
    left_market_at: null,
    has_photos: c.images.length > 0,
    dedup_key: null,
    group_sites_ahead: [],
    group_members: null,
    price_points: [],
    content_hash: `own-${c.source}-${c.reference}`,
    ...fields,
  };
}

export function features(overrides: Partial<ListingContent> = {}): Features {
  return featuresOf(stored(overrides));
}

/** What a sparse collector leaves out: no text, energy figures, year, bedrooms, agency or position. */
export const SPARSE = {
  description: null,
  dpe: null,
  ges: null,
  dpe_value: null,
  ges_value: null,
  year_built: null,
  bedrooms: null,
  seller_name: null,
  seller_type: null,
  latitude: null,
  longitude: null,
} satisfies Partial<ListingContent>;

export { DESCRIPTION };
