/**
 * The shapes real collectors give duplicates, which the site quirks of sites.ts alone never make
 * (docs/deduplication.md, "What real duplicates look like"):
 * - `sparse`: one copy as a SeLoger-like collector writes it (a price, a surface to the centimetre,
 *   the rooms, the postal code in the city field and the type only in the URL path; no title, type,
 *   description or coordinates), another as a Leboncoin-like one (the city name only, no
 *   postal code, no description, the surface rounded to whole metres, coordinates blurred by a few
 *   hundred metres). Same price to the euro and same rooms on both: the pair a scorer must merge
 *   on those few values alone.
 * - `twin`: two flats of one agency in one building at one price, with surfaces 1.5 to 8 m² apart,
 *   each written the sparse way on several sites: the pair a scorer must not merge.
 * - `classic`: what sites.ts writes (text, energy figures, coordinates...).
 */
import type { Property } from './model.js';
import { cityLabel, jitter } from './places.js';
import type { Rng } from './prng.js';

export type PairShape = 'classic' | 'sparse' | 'twin';

/**
 * Share of properties drawn as a sparse pair. A classic multi-site property makes 2.2 pairs on
 * average (2 to 4 copies), a sparse one 1: with the twins, this puts over a third of the duplicate
 * pairs in the real shapes (a test holds it above 30 %).
 */
export const SPARSE_SHARE = 0.3;
/** Share of flats that get a twin (same agency, building and price, another surface). */
export const TWIN_SHARE_OF_FLATS = 0.04;

const KIND_SLUG: Record<Property['kind'], string> = {
  appartement: 'appartement',
  maison: 'maison',
  terrain: 'terrain',
  parking: 'parking',
  local: 'local-commercial',
  bureaux: 'bureaux',
  immeuble: 'immeuble',
};
const DISTRICTS = ['centre-ville', 'le-port', 'la-gare', 'les-halles', 'saint-jean', 'le-mourillon', 'les-moulins', 'le-parc'];

/** The twin of a flat: the same agency, building, rooms and price, another surface and floor. */
export function createTwinFlat(original: Property, id: string, serial: number, rng: Rng): Property {
  const surface = original.surface ?? 50;
  const gap = rng.float(1.5, 8) * (rng.chance(0.5) || surface < 20 ? 1 : -1);
  const floors = original.buildingFloors ?? 4;
  const floor = original.floor === null ? rng.int(0, floors) : (original.floor + 1 + rng.int(0, floors - 1)) % (floors + 1);
  return { ...original, id, serial, surface: Math.round((surface + gap) * 100) / 100, floor };
}

/** Rewrites a site's record of `p` in the shape of its pair: copy 0 SeLoger-like, copy 1 Leboncoin-like. */
export function applyShape(record: Record<string, unknown>, p: Property, shape: PairShape, copyIndex: number, rng: Rng): void {
  if (shape === 'classic' || copyIndex > 1) return;
  const transaction = p.transaction === 'vente' ? 'achat' : 'locations';
  const common = {
    price: p.transaction === 'vente' ? `${p.price}.0` : p.price,
    rooms: p.rooms === null ? undefined : `${p.rooms}.0`,
    transaction: p.transaction,
    description: undefined,
    dpe: undefined,
    ges: undefined,
    dpe_value: undefined,
    ges_value: undefined,
    year_built: undefined,
    bedrooms: undefined,
    land_surface: undefined,
    postal_code: undefined,
    latitude: undefined,
    longitude: undefined,
  };
  if (copyIndex === 0) {
    const url = new URL(String(record.url));
    const citySlug = `${p.commune.name
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')}-${p.commune.department.toLowerCase()}`;
    Object.assign(record, common, {
      url: `${url.origin}/annonces/${transaction}/${KIND_SLUG[p.kind]}/${citySlug}/${rng.pick(DISTRICTS)}/${record.reference}.htm`,
      title: undefined,
      type: undefined,
      city: p.commune.postalCode,
      surface: p.surface === null ? undefined : p.surface.toFixed(p.surface % 1 === 0 ? 1 : 2),
    });
    return;
  }
  const blurred = p.lat !== null && p.lon !== null ? jitter(rng, p.lat, p.lon, rng.float(200, 800)) : null;
  Object.assign(record, common, {
    // Paris, Lyon and Marseille are shown with their arrondissement, as Leboncoin does.
    city: cityLabel(p.commune, 'arrondissement', rng),
    department: p.commune.department,
    surface: p.surface === null ? undefined : Math.round(p.surface),
    latitude: blurred === null ? undefined : Math.round(blurred.lat * 1e4) / 1e4,
    longitude: blurred === null ? undefined : Math.round(blurred.lon * 1e4) / 1e4,
  });
}
