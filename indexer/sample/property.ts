/**
 * Over 300 lines on purpose: one draw of a property, step by step, whose steps depend on the ones before.
 * Draws the ground truth of sample properties: where, what, how big, how much, who sells, how it
 * is described. Site-specific writing happens later (render.ts); everything a property's copies
 * must agree on is decided here, once.
 */
import type { Commune } from '../../src/core/refdata/communes.js';
import type { EnergyLetter, HouseStyle, Property, PropertyKind, Status, Transaction } from './model.js';
import { jitter, type PlacePicker } from './places.js';
import { basePricePerM2, priceOf } from './prices.js';
import type { Rng } from './prng.js';
import { createSeller, type SellerKind } from './sellers.js';
import { describe, freeTitle, LUMINOUS_SHARE, pickFeatures } from './vocabulary.js';

const DAY_MS = 86_400_000;

/** Share of rentals among properties. */
export const RENTAL_SHARE = 0.25;
/** Share of properties that carry no photo at all (some copies drop theirs too: about 8 % of listings in the end). */
const NO_PHOTO_SHARE = 0.045;
/** Share of descriptions with a phone number or an e-mail address in the text. */
const CONTACT_IN_DESCRIPTION_SHARE = 0.11;
/** Share of properties no longer on the market (sold, under offer, archived, withdrawn). */
const INACTIVE_SHARE = 0.035;

const SOUTH = new Set(['06', '83', '13', '34', '30', '84', '2A', '2B', '66', '64', '33', '40', '11', '971', '972', '974']);
const ILE_DE_FRANCE = new Set(['75', '77', '78', '91', '92', '93', '94', '95']);

function pickKind(transaction: Transaction, commune: Commune, rng: Rng): PropertyKind {
  const rural = commune.population < 5_000;
  const flats = commune.name === 'Paris' ? 4 : rural ? 0.25 : commune.population > 100_000 ? 1.6 : 1;
  const houses = commune.name === 'Paris' ? 0.03 : rural ? 1.7 : commune.population > 100_000 ? 0.5 : 1;
  if (transaction === 'location') {
    return rng.weighted<PropertyKind>([
      ['appartement', 70 * flats],
      ['maison', 18 * houses],
      ['parking', 7],
      ['local', 3],
      ['bureaux', 2],
    ]);
  }
  return rng.weighted<PropertyKind>([
    ['appartement', 48 * flats],
    ['maison', 36 * houses],
    ['terrain', 6 * (rural ? 1.5 : 0.6)],
    ['parking', 4],
    ['local', 3],
    ['bureaux', 2],
    ['immeuble', 1],
  ]);
}

function pickHouseStyle(commune: Commune, rng: Rng): HouseStyle {
  const south = SOUTH.has(commune.department) ? 3 : 1;
  const urban = commune.population > 30_000 ? 2 : 0.6;
  const suburb = ILE_DE_FRANCE.has(commune.department) ? 2.5 : 1;
  return rng.weighted<HouseStyle>([
    ['maison', 62],
    ['maison de ville', 14 * urban],
    ['villa', 12 * south],
    ['pavillon', 8 * suburb],
  ]);
}

/** A surface as an agency measures it: Carrez decimals on about half of them. */
function measured(value: number, rng: Rng): number {
  if (rng.chance(0.45)) return Math.round(value);
  return rng.chance(0.6) ? Math.round(value * 10) / 10 : Math.round(value * 100) / 100;
}

/** Construction periods and their share of the housing stock on sale. */
const BUILDING_PERIODS: readonly (readonly [readonly [number, number], number])[] = [
  [[1700, 1899], 10],
  [[1900, 1947], 18],
  [[1948, 1974], 25],
  [[1975, 2000], 27],
  [[2001, 2025], 20],
];

function pickYear(rng: Rng): number {
  const [from, to] = rng.weighted(BUILDING_PERIODS);
  return rng.int(from, to);
}

const LETTERS: readonly EnergyLetter[] = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];
const DPE_BOUNDS = [0, 70, 110, 180, 250, 330, 420, 600];
const GES_BOUNDS = [0, 6, 11, 30, 50, 70, 100, 140];

/** An energy class, worse for old buildings, and a value inside the class bounds. */
function pickDpe(yearBuilt: number | null, rng: Rng): { letter: EnergyLetter; value: number } {
  const shift = yearBuilt === null ? 0 : yearBuilt >= 2012 ? -2 : yearBuilt >= 1990 ? -1 : yearBuilt < 1948 ? 1 : 0;
  const base = rng.weighted<number>([
    [0, 2],
    [1, 5],
    [2, 18],
    [3, 33],
    [4, 23],
    [5, 10],
    [6, 9],
  ]);
  const index = Math.min(6, Math.max(0, base + shift));
  return { letter: LETTERS[index], value: rng.int(DPE_BOUNDS[index] + 1, DPE_BOUNDS[index + 1] - 1) };
}

function pickGes(dpeIndex: number, rng: Rng): { letter: EnergyLetter; value: number } {
  const index = Math.min(6, Math.max(0, dpeIndex + rng.int(-2, 1)));
  return { letter: LETTERS[index], value: rng.int(GES_BOUNDS[index] + 1, GES_BOUNDS[index + 1] - 1) };
}

function knownOrNull<T>(rng: Rng, probability: number, value: () => T): T | null {
  return rng.chance(probability) ? value() : null;
}

function pickStatus(transaction: Transaction, rng: Rng): Status {
  if (!rng.chance(INACTIVE_SHARE)) return 'active';
  return transaction === 'vente'
    ? rng.weighted<Status>([
        ['vendue', 35],
        ['sous compromis', 30],
        ['archivée', 20],
        ['retirée', 15],
      ])
    : rng.weighted<Status>([
        ['archivée', 50],
        ['retirée', 50],
      ]);
}

function pickPhotoCount(rng: Rng): number {
  if (rng.chance(NO_PHOTO_SHARE)) return 0;
  return Math.max(1, Math.min(20, Math.round(8 + rng.normal() * 4)));
}

export interface PropertyContext {
  places: PlacePicker;
  now: number;
}

/** A brand-new property somewhere in France. */
export function createProperty(id: string, serial: number, ctx: PropertyContext, rng: Rng): Property {
  const commune = ctx.places.pick(rng);
  const transaction: Transaction = rng.chance(RENTAL_SHARE) ? 'location' : 'vente';
  const kind = pickKind(transaction, commune, rng);
  const centre = commune.lat !== null && commune.lon !== null ? jitter(rng, commune.lat, commune.lon, 1_000) : null;
  const sellerKind: SellerKind = rng.weighted<SellerKind>([
    ['particulier', 20],
    ['notaire', transaction === 'vente' && kind !== 'parking' ? 4 : 0],
    ['agence', 76],
  ]);
  const p: Property = {
    id,
    serial,
    kind,
    houseStyle: kind === 'maison' ? pickHouseStyle(commune, rng) : null,
    transaction,
    furnished: transaction === 'location' && kind === 'appartement' && rng.chance(0.3),
    commune,
    lat: centre ? round6(centre.lat) : null,
    lon: centre ? round6(centre.lon) : null,
    surface: null,
    landSurface: null,
    livingRoomSurface: null,
    rooms: null,
    bedrooms: null,
    bathrooms: null,
    showerRooms: null,
    toilets: null,
    floor: null,
    buildingFloors: null,
    kitchen: null,
    yearBuilt: kind === 'terrain' || kind === 'parking' ? null : knownOrNull(rng, 0.7, () => pickYear(rng)),
    elevator: null,
    parking: null,
    parkingInterior: null,
    parkingExterior: null,
    cellar: null,
    garden: null,
    exclusive: sellerKind === 'agence' ? knownOrNull(rng, 0.7, () => rng.chance(0.3)) : null,
    features: [],
    dpe: null,
    dpeValue: null,
    ges: null,
    gesValue: null,
    price: 0,
    seller: createSeller(sellerKind, commune, rng),
    photoCount: pickPhotoCount(rng),
    publishedAt: ctx.now - Math.floor(rng.float(0.05, 150) * DAY_MS),
    status: pickStatus(transaction, rng),
    title: '',
    sentences: [],
  };
  shape(p, rng);
  p.features = pickFeatures(kind, commune, rng);
  energy(p, rng);
  p.price = priceOf({ kind, transaction, surface: p.surface, landSurface: p.landSurface, pricePerM2: basePricePerM2(commune) }, rng);
  writeText(p, rng);
  return p;
}

/** Surfaces, rooms and equipment according to the kind of property. */
function shape(p: Property, rng: Rng): void {
  const paris = p.commune.name === 'Paris';
  const rural = p.commune.population < 5_000;
  switch (p.kind) {
    case 'appartement': {
      const rooms = rng.weighted<number>([
        [1, 16],
        [2, 28],
        [3, 28],
        [4, 17],
        [5, 8],
        [6, 3],
      ]);
      const raw = rooms === 1 ? rng.float(14, 32) : 10 + rooms * rng.float(15, 21);
      p.rooms = rooms;
      p.surface = measured(raw * (paris ? 0.88 : 1), rng);
      p.bedrooms = Math.max(0, rooms - 1);
      p.bathrooms = rooms >= 5 && rng.chance(0.5) ? 2 : rooms === 1 ? 0 : 1;
      p.showerRooms = rooms === 1 ? 1 : rng.chance(0.3) ? 1 : 0;
      p.toilets = rooms >= 4 && rng.chance(0.4) ? 2 : 1;
      p.buildingFloors = paris ? rng.int(5, 7) : rng.int(2, 9);
      p.floor = rng.int(0, p.buildingFloors);
      p.elevator = knownOrNull(rng, 0.8, () => (p.buildingFloors! >= 5 ? rng.chance(0.85) : rng.chance(0.25)));
      p.kitchen =
        rooms === 1 && rng.chance(0.5) ? 'kitchenette' : knownOrNull(rng, 0.7, () => rng.pick(['équipée', 'aménagée', 'américaine', 'séparée', 'ouverte']));
      p.cellar = knownOrNull(rng, 0.6, () => rng.chance(0.4));
      p.parking = knownOrNull(rng, 0.6, () => rng.chance(paris ? 0.15 : 0.4));
      p.garden = knownOrNull(rng, 0.4, () => rng.chance(0.05));
      break;
    }
    case 'maison': {
      const rooms = rng.weighted<number>([
        [3, 12],
        [4, 28],
        [5, 28],
        [6, 18],
        [7, 9],
        [8, 5],
      ]);
      p.rooms = rooms;
      p.surface = measured(20 + rooms * rng.float(17, 25), rng);
      p.landSurface = p.houseStyle === 'maison de ville' && rng.chance(0.5) ? null : Math.round(rural ? rng.float(400, 3_000) : rng.float(120, 900));
      p.bedrooms = rooms - (rng.chance(0.6) ? 1 : 2);
      p.bathrooms = rooms >= 6 && rng.chance(0.5) ? 2 : 1;
      p.showerRooms = rng.chance(0.4) ? 1 : 0;
      p.toilets = rng.chance(0.6) ? 2 : 1;
      p.kitchen = knownOrNull(rng, 0.7, () => rng.pick(['équipée', 'aménagée', 'américaine', 'séparée', 'ouverte']));
      p.garden = p.landSurface !== null ? knownOrNull(rng, 0.8, () => true) : knownOrNull(rng, 0.5, () => false);
      p.parking = knownOrNull(rng, 0.6, () => rng.chance(0.75));
      p.cellar = knownOrNull(rng, 0.5, () => rng.chance(0.3));
      break;
    }
    case 'terrain':
      p.landSurface = Math.round(rng.chance(0.8) ? rng.float(300, 1_500) : rng.float(1_500, 8_000));
      break;
    case 'parking':
      p.surface = rng.chance(0.5) ? rng.int(10, 18) : null;
      p.parking = true;
      break;
    case 'local':
      p.surface = measured(rng.float(25, 300), rng);
      break;
    case 'bureaux':
      p.surface = measured(rng.float(30, 600), rng);
      p.elevator = knownOrNull(rng, 0.5, () => rng.chance(0.6));
      break;
    case 'immeuble':
      p.surface = Math.round(rng.float(180, 900));
      break;
  }
  if (p.surface !== null && (p.kind === 'appartement' || p.kind === 'maison') && rng.chance(0.4)) {
    p.livingRoomSurface = Math.round(p.surface * rng.float(0.25, 0.4));
  }
  if (p.parking) {
    p.parkingInterior = knownOrNull(rng, 0.5, () => rng.chance(0.5));
    p.parkingExterior = p.parkingInterior === null ? null : !p.parkingInterior;
  }
}

function energy(p: Property, rng: Rng): void {
  const share = p.kind === 'terrain' || p.kind === 'parking' ? 0 : p.kind === 'local' || p.kind === 'bureaux' ? 0.85 : 0.97;
  if (!rng.chance(share)) return;
  const dpe = pickDpe(p.yearBuilt, rng);
  p.dpe = dpe.letter;
  p.dpeValue = dpe.value;
  if (rng.chance(0.95)) {
    const ges = pickGes(LETTERS.indexOf(dpe.letter), rng);
    p.ges = ges.letter;
    p.gesValue = ges.value;
  }
}

function writeText(p: Property, rng: Rng): void {
  p.title = freeTitle(p, rng);
  p.sentences = describe(p, rng.chance(LUMINOUS_SHARE), rng.chance(CONTACT_IN_DESCRIPTION_SHARE), rng);
}

/**
 * A hard negative for deduplication: another flat of the same building (same place, coordinates,
 * type and surface) on another floor, clearly dearer or cheaper, described by its own seller.
 */
export function createNeighbourFlat(original: Property, id: string, serial: number, ctx: PropertyContext, rng: Rng): Property {
  const floors = original.buildingFloors ?? 4;
  let floor = rng.int(0, floors);
  if (floor === original.floor) floor = (floor + 1 + rng.int(0, floors - 1)) % (floors + 1);
  // Price gap of at least 25 % (or 22 % the other way), so copies that move by a few % stay > 12 % apart.
  const factor = rng.chance(0.5) ? rng.float(1.25, 1.45) : rng.float(0.62, 0.78);
  const rooms = rng.chance(0.7) ? original.rooms : Math.max(1, (original.rooms ?? 2) + (rng.chance(0.5) ? 1 : -1));
  const sellerKind: SellerKind = rng.chance(0.2) ? 'particulier' : 'agence';
  const p: Property = {
    ...original,
    id,
    serial,
    floor,
    rooms,
    bedrooms: rooms === null ? null : Math.max(0, rooms - 1),
    price: Math.round((original.price * factor) / 100) * 100,
    seller: sellerKind === 'agence' && original.seller.kind === 'agence' && rng.chance(0.5) ? original.seller : createSeller(sellerKind, original.commune, rng),
    exclusive: null,
    photoCount: pickPhotoCount(rng),
    publishedAt: ctx.now - Math.floor(rng.float(0.05, 150) * DAY_MS),
    status: pickStatus(original.transaction, rng),
    kitchen: knownOrNull(rng, 0.7, () => rng.pick(['équipée', 'aménagée', 'américaine', 'séparée'])),
    cellar: knownOrNull(rng, 0.6, () => rng.chance(0.4)),
    livingRoomSurface: null,
  };
  p.features = pickFeatures(p.kind, p.commune, rng);
  energy(p, rng);
  writeText(p, rng);
  return p;
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
