/**
 * Writes one property as one site's raw record: the site's formats, the fields it fills, its
 * title, and the small differences copies of one property show from site to site (price moved by
 * a few %, surface rounded, description rewritten or cut, fewer photos, coordinates moved or gone).
 */
import { formatBoolean, formatDate, formatPrice, formatRent, formatSurface } from './formats.js';
import type { Property } from './model.js';
import { cityLabel, stripAccents } from './places.js';
import type { Rng } from './prng.js';
import type { Site, SiteQuirks, TypeStyle } from './sites.js';
import { kindNoun, rewrite, siteTitle } from './vocabulary.js';
import { energyFields, legalInfo, locationFields, photos, sellerFields, type CopyContext } from './render-fields.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Collection dates spread over this many days before `now`. */
const COLLECTION_WINDOW_DAYS = 120;
/** Share of copies whose price moved (fees included or not, a price cut not yet everywhere). */
const PRICE_MOVED_SHARE = 0.5;

/**
 * One site's raw record of the property. Every record is built as one object literal with the same
 * keys in the same order (a field the site leaves out is `undefined`, which JSON.stringify drops):
 * a million objects with ever-changing key sets would each walk V8's hidden-class transitions,
 * which costs more than the rest of the rendering.
 */
export function renderCopy(p: Property, site: Site, ctx: CopyContext, rng: Rng): Record<string, unknown> {
  const q = site.quirks;
  const none = unknownValue(q);
  const fill = (probability: number) => rng.chance(probability);

  const reference = q.reference(ctx.counter, p, rng);
  const city = cityLabel(p.commune, rng.weighted(q.city), rng);
  const { publishedAt, collectedAt } = copyDates(p, ctx, rng);
  const price = copyPrice(p, rng);
  const surface = p.surface === null ? null : q.roundsSurface || rng.chance(0.1) ? roundSurface(p.surface, rng) : p.surface;
  const status = p.status !== 'active' && rng.chance(0.85) ? p.status : q.explicitActive ? 'active' : undefined;
  const title = q.title === 'free' ? p.title : siteTitle(q.title, p, surface, city, rng);
  const description = copyDescription(p, q, rng);
  const landSurface = p.landSurface !== null && fill(q.fill.land) ? formatSurface(p.landSurface, q.surface) : null;
  const livingRoom = p.livingRoomSurface !== null && fill(q.fill.details) ? formatSurface(p.livingRoomSurface, q.surface) : undefined;
  const rooms = p.rooms !== null && fill(q.fill.rooms) ? p.rooms : null;
  const bedrooms = p.bedrooms !== null && fill(q.fill.details) ? p.bedrooms : null;
  const withWetRooms = fill(q.fill.details);
  const kitchen = p.kitchen !== null && fill(q.fill.details) ? (q.types === 'formal' ? `Cuisine ${p.kitchen}` : p.kitchen) : null;
  const yearBuilt = p.yearBuilt !== null && fill(q.fill.year) ? p.yearBuilt : null;
  const flag = (value: boolean | null) => (value !== null && fill(q.fill.booleans) ? formatBoolean(value, q.booleans) : undefined);
  const elevator = flag(p.elevator);
  const parking = flag(p.parking);
  const parkingInterior = flag(p.parkingInterior);
  const parkingExterior = flag(p.parkingExterior);
  const cellar = flag(p.cellar);
  const garden = flag(p.garden);
  const exclusive = flag(p.exclusive);
  const seller = sellerFields(p, q, ctx, rng);
  const place = locationFields(p, q, rng);
  const energy = energyFields(p, site, rng);
  const legal = q.legalInfo ? legalInfo(p, q.legalInfo, price, rng) : undefined;
  const images = photos(p, site, rng);
  const pro = p.seller.kind !== 'particulier';
  const video = pro && rng.chance(0.03) ? `https://www.youtube.com/watch?v=${rng.hex(11)}` : undefined;
  const tour = pro && rng.chance(0.05) ? `https://my.matterport.com/show/?m=${rng.hex(11)}` : undefined;

  return {
    source: site.source,
    reference,
    url: `${site.url}${q.path(p, String(reference), slugOf(p.commune.name))}`,
    collected_at: new Date(collectedAt).toISOString(),
    status,
    title,
    description: description ?? none,
    type: typeLabel(q.types, p),
    transaction: q.transactionLabels[p.transaction],
    price: p.transaction === 'vente' ? formatPrice(price, q.price) : formatRent(price, q.rent),
    surface: surface === null ? none : formatSurface(surface, q.surface),
    land_surface: landSurface ?? none,
    living_room_surface: livingRoom,
    rooms: rooms ?? none,
    bedrooms: bedrooms ?? none,
    bathrooms: withWetRooms ? (p.bathrooms ?? none) : undefined,
    shower_rooms: withWetRooms ? (p.showerRooms ?? none) : undefined,
    toilets: withWetRooms ? (p.toilets ?? none) : undefined,
    kitchen: kitchen ?? none,
    year_built: yearBuilt ?? none,
    elevator,
    parking,
    parking_interior: parkingInterior,
    parking_exterior: parkingExterior,
    cellar,
    garden,
    exclusive,
    seller_type: seller.type,
    seller_name: seller.name,
    seller_phone: seller.phone,
    seller_email: seller.email,
    real_estate_network: seller.network,
    city,
    postal_code: place.postalCode ?? none,
    department: place.department,
    region: place.region,
    latitude: place.latitude ?? none,
    longitude: place.longitude ?? none,
    dpe: energy.dpe ?? none,
    dpe_value: energy.dpeValue,
    dpe_chart_url: energy.dpeChart,
    ges: energy.ges,
    ges_value: energy.gesValue,
    ges_chart_url: energy.gesChart,
    legal_info: legal,
    images,
    video_url: video,
    virtual_tour_url: tour,
    published_at: formatDate(publishedAt, q.published),
    is_internal: site.source === 'interne' ? true : undefined,
  };
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
    slug = stripAccents(name)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-');
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
  const step = p.transaction === 'location' ? 5 : moved > 100_000 ? 1_000 : 100;
  const rounded = Math.round(moved / step) * step;
  // Rounding a small rent (a parking space) could move it further than the -5 %..+3 % band.
  return rounded >= p.price * 0.95 && rounded <= p.price * 1.03 ? rounded : p.price;
}

/** 45.5 -> 45 or 46: sites that show whole square metres. */
function roundSurface(surface: number, rng: Rng): number {
  if (Number.isInteger(surface)) return surface;
  return rng.chance(0.3) ? Math.floor(surface) : Math.round(surface);
}

const FORMAL: Record<Property['kind'], string> = {
  appartement: 'Appartement',
  maison: 'Maison',
  terrain: 'Terrain',
  parking: 'Parking',
  local: 'Local commercial',
  bureaux: 'Bureaux',
  immeuble: 'Immeuble',
};

/** The property type as the site names it: "appt", "T3", "F2", "studio", "villa", "Maison/villa"... */
export function typeLabel(style: TypeStyle, p: Property): string {
  const rooms = p.rooms ?? 1;
  switch (style) {
    case 'formal':
      return FORMAL[p.kind];
    case 'short':
      return p.kind === 'appartement' ? 'appt' : FORMAL[p.kind].toLowerCase();
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
