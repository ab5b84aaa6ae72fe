/**
 * The field groups of a site's copy of a property: the seller, the place, the energy classes, the
 * legal information and the photo URLs, each written in the site's own way.
 */
import { formatDpe, formatGes } from './formats.js';
import type { Property } from './model.js';
import { jitter } from './places.js';
import type { Rng } from './prng.js';
import { createAgency } from './sellers.js';
import type { Site, SiteQuirks } from './sites.js';

/** Where a copy stands among the property's copies and the site's records. */
export interface CopyContext {
  now: number;
  /** 0 for the first site a property appears on. */
  copyIndex: number;
  /** Per-site counter, for unique references. */
  counter: number;
}

interface SellerFields {
  type: string;
  name?: string;
  phone?: string;
  email?: string;
  network?: string;
}

export function sellerFields(p: Property, q: SiteQuirks, ctx: CopyContext, rng: Rng): SellerFields {
  let type: string;
  let name: string | undefined;
  let network: string | undefined;
  if (p.seller.kind === 'particulier') {
    type = q.sellerLabels.particulier;
    if (q.showsPrivateName && rng.chance(0.6)) name = p.seller.name;
  } else {
    // A duplicate is sometimes published by another agency holding a mandate too.
    const seller = p.seller.kind === 'agence' && ctx.copyIndex > 0 && rng.chance(0.25) ? createAgency(p.commune, rng) : p.seller;
    type = q.sellerLabels.pro;
    name = q.upperCaseSellerNames ? seller.name.toUpperCase() : seller.name;
    if (q.network && seller.network && rng.chance(0.8)) network = seller.network;
  }
  let phone: string | undefined;
  let email: string | undefined;
  if (rng.chance(q.contactFields)) {
    phone = rng.chance(0.5) ? (p.seller.phone.match(/../g) ?? []).join(' ') : p.seller.phone;
    if (rng.chance(0.5)) email = p.seller.email;
  }
  return { type, name, phone, email, network };
}

interface LocationFields {
  postalCode: string | number | null;
  department?: string;
  region?: string;
  latitude: number | string | null;
  longitude: number | string | null;
}

export function locationFields(p: Property, q: SiteQuirks, rng: Rng): LocationFields {
  const postalCode = rng.chance(q.postalCodeMissing) ? null : q.postalCodeAsNumber ? Number(p.commune.postalCode) : p.commune.postalCode;
  const department =
    q.department === null ? undefined : q.department === 'nameAndCode' ? `${p.commune.departmentName} (${p.commune.department})` : p.commune.department;
  const region = q.department === null ? undefined : p.commune.region;
  if (p.lat === null || p.lon === null || rng.chance(q.coordinatesMissing)) {
    return { postalCode, department, region, latitude: null, longitude: null };
  }
  let lat = p.lat;
  let lon = p.lon;
  if (q.coordinates === 'communeCentre' && p.commune.lat !== null && p.commune.lon !== null) {
    lat = p.commune.lat;
    lon = p.commune.lon;
  } else if (rng.chance(0.25)) {
    ({ lat, lon } = jitter(rng, lat, lon, rng.float(20, 150)));
  }
  switch (q.coordinates) {
    case 'rounded':
      return { postalCode, department, region, latitude: round(lat, 1e4), longitude: round(lon, 1e4) };
    case 'string':
      return { postalCode, department, region, latitude: lat.toFixed(5), longitude: lon.toFixed(5) };
    default:
      return { postalCode, department, region, latitude: round(lat, 1e6), longitude: round(lon, 1e6) };
  }
}

interface EnergyFields {
  dpe: string | null;
  dpeValue?: number;
  dpeChart?: string;
  ges?: string;
  gesValue?: number;
  gesChart?: string;
}

export function energyFields(p: Property, site: Site, rng: Rng): EnergyFields {
  const q = site.quirks;
  if (p.dpe === null || p.dpeValue === null || !rng.chance(q.fill.dpe)) return { dpe: null };
  const dpe = formatDpe(p.dpe, q.energy === 'prose' && rng.chance(0.8) ? p.dpeValue : null, q.energy);
  const dpeValue = q.energyValues ? p.dpeValue : undefined;
  const dpeChart = q.charts ? `https://img.${site.source}.example/dpe/${p.dpe}-${p.dpeValue}.png` : undefined;
  if (p.ges === null || p.gesValue === null || !rng.chance(q.fill.ges)) return { dpe, dpeValue, dpeChart };
  return {
    dpe,
    dpeValue,
    dpeChart,
    ges: formatGes(p.ges, q.energy === 'prose' && rng.chance(0.8) ? p.gesValue : null, q.energy),
    gesValue: q.energyValues ? p.gesValue : undefined,
    gesChart: q.charts ? `https://img.${site.source}.example/ges/${p.ges}-${p.gesValue}.png` : undefined,
  };
}

export function legalInfo(p: Property, style: 'object' | 'string', price: number, rng: Rng): Record<string, unknown> | string {
  const condo = p.kind === 'appartement';
  const lots = rng.int(6, 120);
  if (style === 'object') {
    return condo
      ? { copropriete: true, nombre_lots: lots, charges_annuelles: rng.int(4, 60) * 100, procedure_en_cours: false }
      : { copropriete: false, honoraires: 'à la charge du vendeur' };
  }
  if (p.transaction === 'location') return `Honoraires locataire : ${Math.round(price * 0.6)} €. Dépôt de garantie : ${price} €.`;
  return condo ? `Bien en copropriété - ${lots} lots - Honoraires à la charge du vendeur.` : 'Honoraires à la charge du vendeur.';
}

const EMPTY_PHOTOS: readonly (readonly ['absent' | 'empty' | 'null', number])[] = [
  ['absent', 2],
  ['empty', 1],
];
const EMPTY_PHOTOS_OR_NULL: readonly (readonly ['absent' | 'empty' | 'null', number])[] = [...EMPTY_PHOTOS, ['null', 2]];

export function photos(p: Property, site: Site, rng: Rng): string[] | string | null | undefined {
  const q = site.quirks;
  if (p.photoCount === 0 || rng.chance(q.photosMissing)) {
    // Sites differ on "no photo": no field, an empty list or string, or null.
    const empty = rng.weighted(q.unknown === 'null' ? EMPTY_PHOTOS_OR_NULL : EMPTY_PHOTOS);
    return empty === 'empty' ? (q.photosAsString ? '' : []) : empty === 'null' ? null : undefined;
  }
  const count = rng.chance(q.photosSubset) ? rng.int(1, p.photoCount) : p.photoCount;
  const prefix = `https://img.${site.source}.example/`;
  // 16 hex characters, a stable function of (property, site, photo): each site re-encodes the pictures.
  const base = mix(p.serial, site.index + 0x9e3779b9);
  const urls: string[] = new Array(count);
  for (let i = 0; i < count; i++) {
    urls[i] = `${prefix}${hex8(mix(base, i + 1))}${hex8(mix(base ^ p.serial, i + 0x632be5ab))}.jpg`;
  }
  return q.photosAsString ? urls.join(', ') : urls;
}

const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function hex8(value: number): string {
  return HEX_BYTES[value >>> 24] + HEX_BYTES[(value >>> 16) & 255] + HEX_BYTES[(value >>> 8) & 255] + HEX_BYTES[value & 255];
}

function mix(x: number, y: number): number {
  let h = Math.imul(x ^ (x >>> 16), 0x85ebca6b) ^ Math.imul(y ^ (y >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

function round(value: number, factor: number): number {
  return Math.round(value * factor) / factor;
}
