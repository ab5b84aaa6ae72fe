/**
 * Writes one property as one site's raw record: the site's formats, the fields it fills, its
 * title, and the small differences copies of one property show from site to site (price moved by
 * a few %, surface rounded, description rewritten or cut, fewer photos, coordinates moved or gone).
 */
import { formatBoolean, formatDate, formatDpe, formatGes, formatPrice, formatRent, formatSurface } from './formats.js';
import type { Property } from './model.js';
import { cityLabel, jitter, stripAccents } from './places.js';
import type { Rng } from './prng.js';
import { createAgency } from './sellers.js';
import type { Site, SiteQuirks, TypeStyle } from './sites.js';
import { kindNoun, rewrite, siteTitle } from './vocabulary.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Collection dates spread over this many days before `now`. */
const COLLECTION_WINDOW_DAYS = 120;
/** Share of copies whose price moved (fees included or not, a price cut not yet everywhere). */
const PRICE_MOVED_SHARE = 0.5;

export interface CopyContext {
  now: number;
  /** 0 for the first site a property appears on. */
  copyIndex: number;
  /** Per-site counter, for unique references. */
  counter: number;
}

export function renderCopy(p: Property, site: Site, ctx: CopyContext, rng: Rng): Record<string, unknown> {
  const q = site.quirks;
  // Keys are added by name, never as record[key]: keyed additions turn big objects into slow
  // dictionary-mode objects, which costs a lot at a million records.
  const record: Record<string, unknown> = {};
  const none = unknownValue(q);
  const fill = (probability: number) => rng.chance(probability);

  const reference = q.reference(ctx.counter, p, rng);
  const city = cityLabel(p.commune, rng.weighted(q.city), rng);
  const { publishedAt, collectedAt } = copyDates(p, ctx, rng);
  const price = copyPrice(p, rng);
  const surface = p.surface === null ? null : q.roundsSurface || rng.chance(0.1) ? roundSurface(p.surface, rng) : p.surface;

  record.source = site.source;
  record.reference = reference;
  record.url = `${site.url}${q.path(p, String(reference), slugOf(p.commune.name))}`;
  record.collected_at = new Date(collectedAt).toISOString();
  if (p.status !== 'active' && rng.chance(0.85)) record.status = p.status;
  else if (q.explicitActive) record.status = 'active';

  record.title = q.title === 'free' ? p.title : siteTitle(q.title, p, surface, city, rng);
  const description = copyDescription(p, q, rng);
  if (description !== null) record.description = description; else if (none !== undefined) record.description = none;
  record.type = typeLabel(q.types, p);
  record.transaction = q.transactionLabels[p.transaction];
  record.price = p.transaction === 'vente' ? formatPrice(price, q.price) : formatRent(price, q.rent);
  if (surface !== null) record.surface = formatSurface(surface, q.surface); else if (none !== undefined) record.surface = none;
  if (p.landSurface !== null && fill(q.fill.land)) record.land_surface = formatSurface(p.landSurface, q.surface);
  else if (none !== undefined) record.land_surface = none;
  if (p.livingRoomSurface !== null && fill(q.fill.details)) record.living_room_surface = formatSurface(p.livingRoomSurface, q.surface);
  if (p.rooms !== null && fill(q.fill.rooms)) record.rooms = p.rooms; else if (none !== undefined) record.rooms = none;
  if (p.bedrooms !== null && fill(q.fill.details)) record.bedrooms = p.bedrooms; else if (none !== undefined) record.bedrooms = none;
  if (fill(q.fill.details)) {
    if (p.bathrooms !== null) record.bathrooms = p.bathrooms; else if (none !== undefined) record.bathrooms = none;
    if (p.showerRooms !== null) record.shower_rooms = p.showerRooms; else if (none !== undefined) record.shower_rooms = none;
    if (p.toilets !== null) record.toilets = p.toilets; else if (none !== undefined) record.toilets = none;
  }
  if (p.kitchen !== null && fill(q.fill.details)) record.kitchen = q.types === 'formal' ? `Cuisine ${p.kitchen}` : p.kitchen;
  else if (none !== undefined) record.kitchen = none;
  if (p.yearBuilt !== null && fill(q.fill.year)) record.year_built = p.yearBuilt; else if (none !== undefined) record.year_built = none;
  const yes = q.booleans;
  const shares = q.fill.booleans;
  if (p.elevator !== null && fill(shares)) record.elevator = formatBoolean(p.elevator, yes);
  if (p.parking !== null && fill(shares)) record.parking = formatBoolean(p.parking, yes);
  if (p.parkingInterior !== null && fill(shares)) record.parking_interior = formatBoolean(p.parkingInterior, yes);
  if (p.parkingExterior !== null && fill(shares)) record.parking_exterior = formatBoolean(p.parkingExterior, yes);
  if (p.cellar !== null && fill(shares)) record.cellar = formatBoolean(p.cellar, yes);
  if (p.garden !== null && fill(shares)) record.garden = formatBoolean(p.garden, yes);
  if (p.exclusive !== null && fill(shares)) record.exclusive = formatBoolean(p.exclusive, yes);

  writeSeller(record, p, q, ctx, rng);
  writeLocation(record, p, q, city, rng);
  writeEnergy(record, p, site, rng);
  if (q.legalInfo) record.legal_info = legalInfo(p, q.legalInfo, price, rng);
  writePhotos(record, p, site, rng);
  if (p.seller.kind !== 'particulier' && rng.chance(0.03)) record.video_url = `https://www.youtube.com/watch?v=${rng.hex(11)}`;
  if (p.seller.kind !== 'particulier' && rng.chance(0.05)) record.virtual_tour_url = `https://my.matterport.com/show/?m=${rng.hex(11)}`;
  record.published_at = formatDate(publishedAt, q.published);
  if (site.source === 'interne') record.is_internal = true;
  return record;
}

/** What a site writes for an unknown value: nothing (undefined), null or an empty string. */
function unknownValue(q: SiteQuirks): null | '' | undefined {
  return q.unknown === 'null' ? null : q.unknown === 'empty' ? '' : undefined;
}

const slugs = new Map<string, string>();

/** "Saint-Étienne" -> "saint-etienne", memoised per commune name (a few tens of thousands). */
function slugOf(name: string): string {
  let slug = slugs.get(name);
  if (slug === undefined) {
    slug = stripAccents(name).toLowerCase().replace(/[^a-z0-9]+/g, '-');
    slugs.set(name, slug);
  }
  return slug;
}

function copyDates(p: Property, ctx: CopyContext, rng: Rng): { publishedAt: number; collectedAt: number } {
  const delay = ctx.copyIndex === 0 ? 0 : rng.float(0, 7) * DAY_MS;
  const publishedAt = Math.floor(Math.min(p.publishedAt + delay, ctx.now - HOUR_MS));
  const from = Math.max(publishedAt + 10 * 60_000, ctx.now - COLLECTION_WINDOW_DAYS * DAY_MS);
  const collectedAt = Math.floor(from + rng.next() * (ctx.now - from));
  return { publishedAt, collectedAt };
}

/** The copy's price: the same, or moved by -5 % to +3 % (so two copies stay within 8 %). */
function copyPrice(p: Property, rng: Rng): number {
  if (!rng.chance(PRICE_MOVED_SHARE)) return p.price;
  const moved = p.price * rng.float(0.95, 1.03);
  if (p.transaction === 'location') return Math.max(5, Math.round(moved / 5) * 5);
  return Math.round(moved / (moved > 100_000 ? 1_000 : 100)) * (moved > 100_000 ? 1_000 : 100);
}

/** 45.5 -> 45 or 46: sites that show whole square metres. */
function roundSurface(surface: number, rng: Rng): number {
  if (Number.isInteger(surface)) return surface;
  return rng.chance(0.3) ? Math.floor(surface) : Math.round(surface);
}

const FORMAL: Record<Property['kind'], string> = {
  appartement: 'Appartement', maison: 'Maison', terrain: 'Terrain', parking: 'Parking',
  local: 'Local commercial', bureaux: 'Bureaux', immeuble: 'Immeuble',
};

/** The property type as the site names it: "appt", "T3", "F2", "studio", "villa", "Maison/villa"... */
export function typeLabel(style: TypeStyle, p: Property): string {
  const rooms = p.rooms ?? 1;
  switch (style) {
    case 'formal': return FORMAL[p.kind];
    case 'short': return p.kind === 'appartement' ? 'appt' : FORMAL[p.kind].toLowerCase();
    case 'tNotation':
      if (p.kind === 'appartement') return rooms === 1 ? 'studio' : `T${rooms}`;
      return p.kind === 'maison' ? kindNoun(p) : FORMAL[p.kind].toLowerCase();
    case 'fNotation':
      if (p.kind === 'appartement') return `F${rooms}`;
      return FORMAL[p.kind];
    case 'subtype':
      if (p.kind === 'appartement') return rooms === 1 ? 'studio' : 'Appartement';
      if (p.kind === 'maison') return p.houseStyle === 'maison' || p.houseStyle === null ? 'Maison' : p.houseStyle;
      if (p.kind === 'terrain') return 'terrain à bâtir';
      return FORMAL[p.kind];
    case 'grouped':
      if (p.kind === 'maison') return 'Maison/villa';
      if (p.kind === 'parking') return 'Parking/box';
      return FORMAL[p.kind];
    case 'notaires':
      return p.kind === 'appartement' ? `Appartement T${rooms}` : FORMAL[p.kind];
  }
}

function copyDescription(p: Property, q: SiteQuirks, rng: Rng): string | null {
  if (p.sentences.length === 0 || rng.chance(q.descriptionMissing)) return null;
  const sentences = rng.chance(q.descriptionRewritten) ? rewrite(p.sentences, rng) : p.sentences;
  const text = sentences.join(q.separator);
  if (!rng.chance(q.descriptionTruncated)) return text;
  const limit = rng.int(160, 320);
  if (text.length <= limit) return text;
  const cut = text.lastIndexOf(' ', limit);
  return `${text.slice(0, cut > 0 ? cut : limit)}${rng.chance(0.5) ? '...' : '…'}`;
}

function writeSeller(record: Record<string, unknown>, p: Property, q: SiteQuirks, ctx: CopyContext, rng: Rng): void {
  if (p.seller.kind === 'particulier') {
    record.seller_type = q.sellerLabels.particulier;
    if (q.showsPrivateName && rng.chance(0.6)) record.seller_name = p.seller.name;
  } else {
    // A duplicate is sometimes published by another agency holding a mandate too.
    const seller = p.seller.kind === 'agence' && ctx.copyIndex > 0 && rng.chance(0.25) ? createAgency(p.commune, rng) : p.seller;
    record.seller_type = q.sellerLabels.pro;
    record.seller_name = q.upperCaseSellerNames ? seller.name.toUpperCase() : seller.name;
    if (q.network && seller.network && rng.chance(0.8)) record.real_estate_network = seller.network;
  }
  if (rng.chance(q.contactFields)) {
    const pairs = p.seller.phone.match(/../g) ?? [];
    record.seller_phone = rng.chance(0.5) ? pairs.join(' ') : p.seller.phone;
    if (rng.chance(0.5)) record.seller_email = p.seller.email;
  }
}

function writeLocation(record: Record<string, unknown>, p: Property, q: SiteQuirks, city: string, rng: Rng): void {
  const none = unknownValue(q);
  record.city = city;
  if (!rng.chance(q.postalCodeMissing)) record.postal_code = q.postalCodeAsNumber ? Number(p.commune.postalCode) : p.commune.postalCode;
  else if (none !== undefined) record.postal_code = none;
  if (q.department) {
    record.department = q.department === 'nameAndCode' ? `${p.commune.departmentName} (${p.commune.department})` : p.commune.department;
    record.region = p.commune.region;
  }
  if (p.lat === null || p.lon === null || rng.chance(q.coordinatesMissing)) {
    if (none !== undefined) {
      record.latitude = none;
      record.longitude = none;
    }
    return;
  }
  let { lat, lon } = { lat: p.lat, lon: p.lon };
  if (q.coordinates === 'communeCentre' && p.commune.lat !== null && p.commune.lon !== null) {
    lat = p.commune.lat;
    lon = p.commune.lon;
  } else if (rng.chance(0.25)) {
    ({ lat, lon } = jitter(rng, lat, lon, rng.float(20, 150)));
  }
  switch (q.coordinates) {
    case 'rounded': record.latitude = round(lat, 4); record.longitude = round(lon, 4); break;
    case 'string': record.latitude = lat.toFixed(5); record.longitude = lon.toFixed(5); break;
    default: record.latitude = round(lat, 6); record.longitude = round(lon, 6);
  }
}

function writeEnergy(record: Record<string, unknown>, p: Property, site: Site, rng: Rng): void {
  const q = site.quirks;
  if (p.dpe === null || p.dpeValue === null || !rng.chance(q.fill.dpe)) {
    const none = unknownValue(q);
    if (none !== undefined) record.dpe = none;
    return;
  }
  const proseValue = q.energy === 'prose' && rng.chance(0.8) ? p.dpeValue : null;
  record.dpe = formatDpe(p.dpe, proseValue, q.energy);
  if (q.energyValues) record.dpe_value = p.dpeValue;
  if (q.charts) record.dpe_chart_url = `https://img.${site.source}.example/dpe/${p.dpe}-${p.dpeValue}.png`;
  if (p.ges === null || p.gesValue === null || !rng.chance(q.fill.ges)) return;
  record.ges = formatGes(p.ges, q.energy === 'prose' && rng.chance(0.8) ? p.gesValue : null, q.energy);
  if (q.energyValues) record.ges_value = p.gesValue;
  if (q.charts) record.ges_chart_url = `https://img.${site.source}.example/ges/${p.ges}-${p.gesValue}.png`;
}

function legalInfo(p: Property, style: 'object' | 'string', price: number, rng: Rng): Record<string, unknown> | string | null {
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

function writePhotos(record: Record<string, unknown>, p: Property, site: Site, rng: Rng): void {
  const q = site.quirks;
  if (p.photoCount === 0 || rng.chance(q.photosMissing)) {
    // Sites differ on "no photo": no field, an empty list or an empty string.
    const empty = rng.weighted<string>([['absent', 2], ['empty', 1], ['null', q.unknown === 'null' ? 2 : 0]]);
    if (empty === 'empty') record.images = q.photosAsString ? '' : [];
    else if (empty === 'null') record.images = null;
    return;
  }
  const count = rng.chance(q.photosSubset) ? rng.int(1, p.photoCount) : p.photoCount;
  const prefix = `https://img.${site.source}.example/`;
  // 16 hex characters, a stable function of (property, site, photo): each site re-encodes the pictures.
  const base = mix(p.serial, site.index + 0x9e3779b9);
  const urls: string[] = new Array(count);
  for (let i = 0; i < count; i++) {
    urls[i] = `${prefix}${hex8(mix(base, i + 1))}${hex8(mix(base ^ p.serial, i + 0x632be5ab))}.jpg`;
  }
  record.images = q.photosAsString ? urls.join(', ') : urls;
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

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
