/**
 * Deterministic StoredListing fixtures for store-level tests: varied enough that every filter and
 * sort has matches and misses, with nulls, ties, duplicates groups, inactive and photo-less listings.
 */
import type { StoredListing } from '../../src/core/model/stored.js';
import type { ListingContent } from '../../src/core/model/stored.js';
import type { DpeLetter } from '../../src/core/model/annonce.js';

export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PLACES = [
  { city: 'Paris', postal_code: '75008', department: '75', region: 'Île-de-France', lat: 48.873, lon: 2.311 },
  { city: 'Paris', postal_code: '75016', department: '75', region: 'Île-de-France', lat: 48.863, lon: 2.27 },
  { city: 'Lyon', postal_code: '69003', department: '69', region: 'Auvergne-Rhône-Alpes', lat: 45.751, lon: 4.868 },
  { city: 'Saint-Étienne', postal_code: '42000', department: '42', region: 'Auvergne-Rhône-Alpes', lat: 45.434, lon: 4.39 },
  { city: 'Ajaccio', postal_code: '20000', department: '2A', region: 'Corse', lat: 41.919, lon: 8.739 },
  { city: 'Guéret', postal_code: '23000', department: '23', region: 'Nouvelle-Aquitaine', lat: 46.171, lon: 1.871 },
  // Across the antimeridian (Wallis-et-Futuna-like longitudes) to test boxes with west > east.
  { city: 'Nouméa', postal_code: '98800', department: '988', region: 'Outre-mer', lat: -22.276, lon: 179.6 },
  { city: 'Suva', postal_code: '98801', department: '988', region: 'Outre-mer', lat: -18.1, lon: -179.7 },
];
const TYPES = ['Appartement', 'Maison', 'Terrain', 'Parking'];
const SITES = ['seloger', 'leboncoin', 'bienici', 'pap', 'notaires'];
const WORDS = ['lumineux', 'calme', 'balcon', 'cheminée', 'parquet', 'jardin', 'pigeonnier', 'vue', 'mer', 'terrasse'];
const LETTERS: DpeLetter[] = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];
const BASE_TIME = Date.parse('2026-09-01T00:00:00Z');

export interface FixtureOptions {
  count: number;
  seed?: number;
  now?: number;
}

export function makeListings({ count, seed = 7 }: FixtureOptions): StoredListing[] {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const maybe = <T>(p: number, value: () => T): T | null => (random() < p ? value() : null);
  const listings: StoredListing[] = [];
  for (let i = 0; i < count; i++) {
    const place = pick(PLACES);
    const source = SITES[i % SITES.length];
    const reference = `ref-${String(i).padStart(5, '0')}`;
    const surface = maybe(0.9, () => Math.round(15 + random() * 200));
    // Ties on purpose: prices on a coarse grid so the tiebreaker matters.
    const price = maybe(0.92, () => 50_000 + Math.floor(random() * 40) * 25_000);
    const words = [pick(WORDS), pick(WORDS), random() < 0.3 ? 'lumineux' : 'sombre'];
    const updatedAt = BASE_TIME + Math.floor(random() * 60) * 3_600_000;
    const images = random() < 0.85 ? [`https://img.example/${i}-1.jpg`, `https://img.example/${i}-2.jpg`] : [];
    const statusRoll = random();
    const status = statusRoll < 0.88 ? 'active' : statusRoll < 0.92 ? 'vendue' : statusRoll < 0.96 ? 'retiree' : 'archivee';
    const content: ListingContent = {
      source,
      reference,
      title: `${pick(TYPES)} ${words[0]} ${i}`,
      type: pick(TYPES),
      transaction_type: random() < 0.75 ? 'vente' : 'location',
      price,
      price_per_m2: price && surface ? Math.round(price / surface) : null,
      price_per_m2_color: null,
      price_label: price ? `${price} €` : null,
      surface,
      land_surface: null,
      living_room_surface: null,
      rooms: maybe(0.8, () => 1 + Math.floor(random() * 6)),
      bedrooms: maybe(0.7, () => Math.floor(random() * 5)),
      bathrooms: null,
      shower_rooms: null,
      toilets: null,
      kitchen: null,
      year_built: maybe(0.35, () => 1850 + Math.floor(random() * 175)),
      elevator: null,
      parking: null,
      parking_interior: null,
      parking_exterior: null,
      cellar: null,
      garden: null,
      exclusive: null,
      seller_type: 'Pro',
      seller_name: 'Agence du Centre',
      real_estate_network: null,
      city: place.city,
      postal_code: place.postal_code,
      department: place.department,
      region: place.region,
      latitude: Math.round((place.lat + (random() - 0.5) * 0.02) * 1000) / 1000,
      longitude: Math.round(Math.max(-180, Math.min(180, place.lon + (random() - 0.5) * 0.02)) * 1000) / 1000,
      dpe: maybe(0.8, () => pick(LETTERS)),
      ges: maybe(0.7, () => pick(LETTERS)),
      dpe_value: null,
      ges_value: null,
      dpe_chart_url: null,
      ges_chart_url: null,
      legal_info: null,
      images,
      images_count: images.length,
      description: `Bien ${words.join(' ')} proche commerces.`,
      external_url: `https://www.${source}.example/${reference}`,
      video_url: null,
      virtual_tour_url: null,
      published_at: new Date(updatedAt - 86_400_000 * 3).toISOString(),
      updated_at: new Date(updatedAt).toISOString(),
      is_internal: false,
    };
    listings.push({
      id: `${source}:${reference}`,
      content,
      completed_from: {},
      status: status as StoredListing['status'],
      catalogue_entered_at: updatedAt - Math.floor(random() * 30) * 86_400_000,
      updated_at: updatedAt,
      published_at: updatedAt - 86_400_000 * 3,
      changed_at: BASE_TIME + i * 1000,
      change_seq: i + 1,
      left_market_at: status === 'active' ? null : updatedAt,
      has_photos: images.length > 0,
      dedup_key: null,
      group_sites_ahead: [],
      group_members: null,
      price_points: [],
      content_hash: `h${i}`,
      // Every ninth active listing republishes a withdrawn one (no random draw: the other values stay as they were).
      ...(status === 'active' && i % 9 === 4
        ? {
            relisted_from: {
              source,
              reference: `old-${reference}`,
              withdrawn_at: updatedAt - 20 * 86_400_000,
              price,
              first_seen_at: updatedAt - 80 * 86_400_000,
            },
          }
        : {}),
    });
  }
  groupDuplicates(listings, random);
  return listings;
}

/** Makes some listings of different sites one property: ranks by site order in SITES. */
function groupDuplicates(listings: StoredListing[], random: () => number): void {
  for (let i = 0; i + 2 < listings.length; i += 10) {
    if (random() < 0.5) continue;
    const members = [listings[i], listings[i + 1], listings[i + 2]]; // three consecutive ids = three different sites
    const ranked = [...members].sort((a, b) => SITES.indexOf(a.content.source) - SITES.indexOf(b.content.source));
    const activeRanked = ranked.filter((m) => m.status === 'active');
    for (const member of members) {
      member.dedup_key = `grp-${i}`;
      member.group_members = ranked.map((m) => ({
        source: m.content.source,
        reference: m.content.reference,
        url: m.content.external_url,
        price: m.content.price,
      }));
      member.group_sites_ahead = activeRanked
        .filter((m) => SITES.indexOf(m.content.source) < SITES.indexOf(member.content.source))
        .map((m) => m.content.source);
    }
  }
}

export const FIXTURE_SITES = SITES;
