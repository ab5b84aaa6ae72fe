/**
 * Over 300 lines on purpose: one table of site quirks, one entry per site, read side by side.
 *
 * The listing sites of src/config/sites.json and how each one writes a listing: reference format,
 * URL, price and surface spellings, type names, DPE in a letter or in prose, date format, which
 * fields it fills, what it does to descriptions and photos. One line of quirks per site.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BooleanStyle, DateStyle, EnergyStyle, PriceStyle, RentStyle, SurfaceStyle } from './formats.js';
import { scramble } from './formats.js';
import type { Property, Transaction } from './model.js';
import type { CityStyle } from './places.js';
import type { Rng } from './prng.js';
import type { SellerKind } from './sellers.js';
import type { TitleStyle } from './vocabulary.js';

export type TypeStyle = 'formal' | 'short' | 'tNotation' | 'fNotation' | 'subtype' | 'grouped' | 'notaires';
export type CoordinateStyle = 'precise' | 'rounded' | 'string' | 'communeCentre';

export interface SiteQuirks {
  /** Relative share of the site among listings. */
  weight: number;
  sellers: readonly SellerKind[];
  transactions: readonly Transaction[];
  reference(counter: number, p: Property, rng: Rng): string | number;
  /** Path after the site's base URL. */
  path(p: Property, reference: string, citySlug: string): string;
  title: TitleStyle;
  transactionLabels: Record<Transaction, string>;
  types: TypeStyle;
  price: PriceStyle;
  rent: RentStyle;
  surface: SurfaceStyle;
  /** Integer surfaces ("45,5" shown as 45 or 46). */
  roundsSurface: boolean;
  energy: EnergyStyle;
  /** dpe_value / ges_value written as their own fields. */
  energyValues: boolean;
  published: DateStyle;
  city: readonly (readonly [CityStyle, number])[];
  postalCodeAsNumber: boolean;
  postalCodeMissing: number;
  coordinates: CoordinateStyle;
  coordinatesMissing: number;
  descriptionMissing: number;
  descriptionRewritten: number;
  descriptionTruncated: number;
  /** Sentence separator: " ", "\n" or "<br />" (HTML kept by the collector). */
  separator: string;
  photosMissing: number;
  photosSubset: number;
  /** Images as one comma-separated string instead of an array. */
  photosAsString: boolean;
  booleans: BooleanStyle;
  sellerLabels: { pro: string; particulier: string };
  /** Shows the seller's pseudonym (a first name) on private listings. */
  showsPrivateName: boolean;
  network: boolean;
  /** Share of records carrying seller_phone / seller_email (contact data the indexer drops). */
  contactFields: number;
  /** How often characteristics are filled when known. */
  fill: { rooms: number; details: number; year: number; dpe: number; ges: number; booleans: number; land: number };
  /** Unknown values: key left out, null, or an empty string. */
  unknown: 'omit' | 'null' | 'empty';
  legalInfo: 'object' | 'string' | null;
  charts: boolean;
  explicitActive: boolean;
  /** Writes department ("69" or "Rhône (69)") and region, or neither. */
  department: 'code' | 'nameAndCode' | null;
  /** Agency names in capitals ("ORPI AGENCE DE LA GARE"). */
  upperCaseSellerNames?: true;
}

/** UUID-looking reference whose last group comes from the counter, so it never repeats. */
const uuid = (n: number, rng: Rng) =>
  `${rng.hex(8)}-${rng.hex(4)}-4${rng.hex(3)}-${rng.pick(['8', '9', 'a', 'b'])}${rng.hex(3)}-${scramble(n, 2 ** 48, 0x5eed)
    .toString(16)
    .padStart(12, '0')}`;
const action = (p: Property) => (p.transaction === 'vente' ? 'vente' : 'location');
const kindSlug = (p: Property) => (p.kind === 'local' ? 'local-commercial' : p.kind);

const FULL = { rooms: 1, details: 1, year: 1, dpe: 1, ges: 1, booleans: 1, land: 1 };
const PRO: readonly SellerKind[] = ['agence', 'notaire'];
const ANY: readonly SellerKind[] = ['agence', 'notaire', 'particulier'];
const BOTH: readonly Transaction[] = ['vente', 'location'];

/** Quirks of every site of sites.json, by source. */
export const QUIRKS: Record<string, SiteQuirks> = {
  seloger: {
    weight: 16,
    sellers: PRO,
    transactions: BOTH,
    reference: (n) => String(100_000_000 + scramble(n, 900_000_000, 1_234_567)),
    path: (p, ref, city) => `/annonces/${p.transaction === 'vente' ? 'achat' : 'locations'}/${kindSlug(p)}/${city}-${p.commune.department}/${ref}.htm`,
    title: 'typeRoomsSurface',
    transactionLabels: { vente: 'achat', location: 'location' },
    types: 'formal',
    price: 'euroSpaced',
    rent: 'perMonthCC',
    surface: 'frenchM2',
    roundsSurface: false,
    energy: 'prose',
    energyValues: false,
    published: 'iso',
    city: [
      ['plain', 7],
      ['arrondissement', 3],
    ],
    postalCodeAsNumber: false,
    postalCodeMissing: 0.02,
    coordinates: 'precise',
    coordinatesMissing: 0.15,
    descriptionMissing: 0.01,
    descriptionRewritten: 0.1,
    descriptionTruncated: 0,
    separator: '\n',
    photosMissing: 0.02,
    photosSubset: 0.2,
    photosAsString: false,
    booleans: 'boolean',
    sellerLabels: { pro: 'Agence', particulier: 'Particulier' },
    showsPrivateName: false,
    network: true,
    contactFields: 0,
    fill: { rooms: 0.98, details: 0.8, year: 0.75, dpe: 0.97, ges: 0.92, booleans: 0.8, land: 0.9 },
    unknown: 'omit',
    legalInfo: 'string',
    charts: true,
    explicitActive: false,
    department: null,
  },
  leboncoin: {
    weight: 22,
    sellers: ANY,
    transactions: BOTH,
    reference: (n) => 2_000_000_000 + scramble(n, 1_000_000_000, 7_654_321),
    path: (p, ref) => `/ad/${p.transaction === 'vente' ? 'ventes_immobilieres' : 'locations'}/${ref}`,
    title: 'free',
    transactionLabels: { vente: 'vente', location: 'location' },
    types: 'short',
    price: 'number',
    rent: 'number',
    surface: 'number',
    roundsSurface: true,
    energy: 'letter',
    energyValues: false,
    published: 'sql',
    city: [
      ['plain', 8],
      ['noAccents', 2],
    ],
    postalCodeAsNumber: true,
    postalCodeMissing: 0.05,
    coordinates: 'precise',
    coordinatesMissing: 0.1,
    descriptionMissing: 0,
    descriptionRewritten: 0.05,
    descriptionTruncated: 0,
    separator: '\n',
    photosMissing: 0.03,
    photosSubset: 0.15,
    photosAsString: false,
    booleans: 'boolean',
    sellerLabels: { pro: 'pro', particulier: 'particulier' },
    showsPrivateName: true,
    network: false,
    contactFields: 0.05,
    fill: { rooms: 0.95, details: 0.3, year: 0.5, dpe: 0.95, ges: 0.9, booleans: 0.4, land: 0.8 },
    unknown: 'omit',
    legalInfo: null,
    charts: false,
    explicitActive: false,
    department: null,
  },
  bienici: {
    weight: 12,
    sellers: PRO,
    transactions: BOTH,
    reference: (n, p) => `ag${String(hashText(p.seller.name) % 1_000_000).padStart(6, '0')}-${300_000_000 + scramble(n, 700_000_000, 42_424_242)}`,
    path: (p, ref, city) => `/annonce/${action(p)}/${city}/${kindSlug(p)}/${p.rooms ?? 1}pieces/${ref}`,
    title: 'typeRoomsSurfaceCity',
    transactionLabels: { vente: 'vente', location: 'location' },
    types: 'subtype',
    price: 'number',
    rent: 'number',
    surface: 'number',
    roundsSurface: false,
    energy: 'letter',
    energyValues: true,
    published: 'iso',
    city: [['plain', 1]],
    postalCodeAsNumber: false,
    postalCodeMissing: 0,
    coordinates: 'precise',
    coordinatesMissing: 0.03,
    descriptionMissing: 0.01,
    descriptionRewritten: 0,
    descriptionTruncated: 0,
    separator: '\n',
    photosMissing: 0.01,
    photosSubset: 0.1,
    photosAsString: false,
    booleans: 'boolean',
    sellerLabels: { pro: 'Pro', particulier: 'Particulier' },
    showsPrivateName: false,
    network: true,
    contactFields: 0,
    fill: { ...FULL, year: 0.8 },
    unknown: 'null',
    legalInfo: null,
    charts: true,
    explicitActive: true,
    department: 'code',
  },
  'logic-immo': {
    weight: 9,
    sellers: PRO,
    transactions: BOTH,
    reference: (n, _p, rng) => uuid(n, rng),
    path: (p, ref) => `/detail-${action(p)}-${ref}.htm`,
    title: 'transactionTypeCity',
    transactionLabels: { vente: 'Vente', location: 'Location' },
    types: 'formal',
    price: 'eurDotted',
    rent: 'euroCC',
    surface: 'm2',
    roundsSurface: true,
    energy: 'prose',
    energyValues: false,
    published: 'dmy',
    city: [
      ['upper', 6],
      ['plain', 4],
    ],
    postalCodeAsNumber: false,
    postalCodeMissing: 0.03,
    coordinates: 'rounded',
    coordinatesMissing: 0.5,
    descriptionMissing: 0.05,
    descriptionRewritten: 0.2,
    descriptionTruncated: 0.5,
    separator: ' ',
    photosMissing: 0.04,
    photosSubset: 0.4,
    photosAsString: false,
    booleans: 'boolean',
    sellerLabels: { pro: 'agence', particulier: 'particulier' },
    showsPrivateName: false,
    network: true,
    contactFields: 0,
    fill: { rooms: 0.95, details: 0.5, year: 0.6, dpe: 0.95, ges: 0.85, booleans: 0.5, land: 0.7 },
    unknown: 'omit',
    legalInfo: null,
    charts: false,
    explicitActive: false,
    department: null,
  },
  pap: {
    weight: 5,
    sellers: ['particulier'],
    transactions: BOTH,
    reference: (n) => `r${400_000_000 + scramble(n, 600_000_000, 31_415_926)}`,
    path: (p, ref, city) => `/annonces/${kindSlug(p)}-${city}-${ref}`,
    title: 'free',
    transactionLabels: { vente: 'vente', location: 'location' },
    types: 'tNotation',
    price: 'euroNbsp',
    rent: 'perMonth',
    surface: 'frenchM2',
    roundsSurface: false,
    energy: 'letter',
    energyValues: false,
    published: 'dmy',
    city: [
      ['noAccents', 5],
      ['plain', 5],
    ],
    postalCodeAsNumber: false,
    postalCodeMissing: 0.05,
    coordinates: 'rounded',
    coordinatesMissing: 0.8,
    descriptionMissing: 0,
    descriptionRewritten: 0.3,
    descriptionTruncated: 0,
    separator: '\n',
    photosMissing: 0.06,
    photosSubset: 0.3,
    photosAsString: false,
    booleans: 'ouiNon',
    sellerLabels: { pro: 'Pro', particulier: 'Particulier' },
    showsPrivateName: false,
    network: false,
    contactFields: 0.3,
    fill: { rooms: 1, details: 0.6, year: 0.4, dpe: 0.85, ges: 0.8, booleans: 0.6, land: 0.9 },
    unknown: 'omit',
    legalInfo: null,
    charts: false,
    explicitActive: false,
    department: null,
  },
  notaires: {
    weight: 3,
    sellers: ['notaire'],
    transactions: ['vente'],
    reference: (n) => String(10_000_000 + scramble(n, 90_000_000, 1_847_402)),
    path: (p, ref, city) => `/fr/annonce-immo/vente/${kindSlug(p)}/${city}-${p.commune.postalCode}/${ref}`,
    title: 'notaires',
    transactionLabels: { vente: 'vente', location: 'location' },
    types: 'notaires',
    price: 'number',
    rent: 'number',
    surface: 'number',
    roundsSurface: false,
    energy: 'letter',
    energyValues: true,
    published: 'ymd',
    city: [
      ['arrondissement', 6],
      ['plain', 4],
    ],
    postalCodeAsNumber: false,
    postalCodeMissing: 0,
    coordinates: 'communeCentre',
    coordinatesMissing: 0.2,
    descriptionMissing: 0,
    descriptionRewritten: 0,
    descriptionTruncated: 0,
    separator: '\n',
    photosMissing: 0.15,
    photosSubset: 0.3,
    photosAsString: false,
    booleans: 'boolean',
    sellerLabels: { pro: 'Pro', particulier: 'Particulier' },
    showsPrivateName: false,
    network: false,
    contactFields: 0.1,
    fill: { rooms: 1, details: 0.4, year: 0.7, dpe: 0.95, ges: 0.9, booleans: 0.3, land: 1 },
    unknown: 'omit',
    legalInfo: 'object',
    charts: false,
    explicitActive: false,
    department: 'code',
  },
  'figaro-immo': {
    weight: 6,
    sellers: PRO,
    transactions: BOTH,
    reference: (n) => `FIG${String(scramble(n, 100_000_000, 27_182_818)).padStart(8, '0')}`,
    path: (_p, ref) => `/annonces/annonce-${ref}.html`,
    title: 'surfaceToTransact',
    transactionLabels: { vente: 'vente', location: 'location' },
    types: 'grouped',
    price: 'euroNbsp',
    rent: 'perMonthCC',
    surface: 'frenchM2',
    roundsSurface: false,
    energy: 'prose',
    energyValues: false,
    published: 'isoOffset',
    city: [
      ['plain', 8],
      ['arrondissement', 2],
    ],
    postalCodeAsNumber: false,
    postalCodeMissing: 0.02,
    coordinates: 'precise',
    coordinatesMissing: 0.2,
    descriptionMissing: 0.02,
    descriptionRewritten: 0.5,
    descriptionTruncated: 0,
    separator: ' ',
    photosMissing: 0.03,
    photosSubset: 0.3,
    photosAsString: false,
    booleans: 'boolean',
    sellerLabels: { pro: 'Pro', particulier: 'Particulier' },
    showsPrivateName: false,
    network: true,
    contactFields: 0,
    fill: { rooms: 0.95, details: 0.7, year: 0.7, dpe: 0.95, ges: 0.9, booleans: 0.7, land: 0.9 },
    unknown: 'omit',
    legalInfo: 'string',
    charts: false,
    explicitActive: false,
    department: null,
  },
  paruvendu: {
    weight: 6,
    sellers: ANY,
    transactions: BOTH,
    reference: (n, p) =>
      `${1_200_000_000 + scramble(n, 800_000_000, 9_876_543)}A1K${p.kind === 'maison' ? 'VHMN' : p.kind === 'appartement' ? 'VHAP' : 'VHDI'}`,
    path: (p, ref) => `/immobilier/${action(p)}/${kindSlug(p)}/${ref}/`,
    title: 'transactionTypeCityPostal',
    transactionLabels: { vente: 'Vente', location: 'Location' },
    types: 'fNotation',
    price: 'euroSpaced',
    rent: 'euroCC',
    surface: 'm2',
    roundsSurface: true,
    energy: 'lower',
    energyValues: false,
    published: 'dmy',
    city: [
      ['abbreviated', 5],
      ['upper', 3],
      ['plain', 2],
    ],
    postalCodeAsNumber: false,
    postalCodeMissing: 0.1,
    coordinates: 'string',
    coordinatesMissing: 0.3,
    descriptionMissing: 0.05,
    descriptionRewritten: 0.2,
    descriptionTruncated: 0.1,
    separator: '<br />',
    photosMissing: 0.05,
    photosSubset: 0.4,
    photosAsString: false,
    booleans: 'digit',
    sellerLabels: { pro: 'professionnel', particulier: 'particulier' },
    showsPrivateName: false,
    network: false,
    contactFields: 0.4,
    fill: { rooms: 0.9, details: 0.4, year: 0.3, dpe: 0.9, ges: 0.85, booleans: 0.5, land: 0.7 },
    unknown: 'empty',
    legalInfo: null,
    charts: false,
    explicitActive: false,
    department: null,
    upperCaseSellerNames: true,
  },
  'ouestfrance-immo': {
    weight: 5,
    sellers: PRO,
    transactions: BOTH,
    reference: (n) => String(10_000_000 + scramble(n, 90_000_000, 15_869_521)),
    path: (p, ref, city) => `/immobilier/${action(p)}/${kindSlug(p)}/${city}-${p.commune.postalCode}/${ref}.htm`,
    title: 'typeCitySurface',
    transactionLabels: { vente: 'vente', location: 'location' },
    types: 'subtype',
    price: 'numericString',
    rent: 'number',
    surface: 'numericString',
    roundsSurface: false,
    energy: 'letter',
    energyValues: true,
    published: 'ymd',
    city: [
      ['plain', 9],
      ['noAccents', 1],
    ],
    postalCodeAsNumber: false,
    postalCodeMissing: 0.02,
    coordinates: 'precise',
    coordinatesMissing: 0.25,
    descriptionMissing: 0.02,
    descriptionRewritten: 0.1,
    descriptionTruncated: 0.3,
    separator: '\n',
    photosMissing: 0.03,
    photosSubset: 0.3,
    photosAsString: false,
    booleans: 'boolean',
    sellerLabels: { pro: 'Pro', particulier: 'Particulier' },
    showsPrivateName: false,
    network: true,
    contactFields: 0,
    fill: { rooms: 0.95, details: 0.6, year: 0.6, dpe: 0.9, ges: 0.85, booleans: 0.6, land: 0.9 },
    unknown: 'omit',
    legalInfo: null,
    charts: false,
    explicitActive: false,
    department: 'nameAndCode',
  },
  avendrealouer: {
    weight: 5,
    sellers: ANY,
    transactions: BOTH,
    reference: (n, _p, rng) => uuid(n, rng).toUpperCase(),
    path: (p, ref, city) => `/${action(p)}/${city}/${ref}.html`,
    title: 'typeRoomsSurface',
    transactionLabels: { vente: 'à vendre', location: 'à louer' },
    types: 'formal',
    price: 'eurDotted',
    rent: 'euroCC',
    surface: 'frenchM2',
    roundsSurface: false,
    energy: 'prose',
    energyValues: false,
    published: 'iso',
    city: [
      ['noAccents', 6],
      ['plain', 4],
    ],
    postalCodeAsNumber: false,
    postalCodeMissing: 0.05,
    coordinates: 'rounded',
    coordinatesMissing: 0.2,
    descriptionMissing: 0.03,
    descriptionRewritten: 0.4,
    descriptionTruncated: 0,
    separator: ' ',
    photosMissing: 0.04,
    photosSubset: 0.3,
    photosAsString: false,
    booleans: 'ouiNon',
    sellerLabels: { pro: 'Pro', particulier: 'Particulier' },
    showsPrivateName: false,
    network: false,
    contactFields: 0.2,
    fill: { rooms: 0.9, details: 0.5, year: 0.5, dpe: 0.9, ges: 0.8, booleans: 0.5, land: 0.8 },
    unknown: 'omit',
    legalInfo: null,
    charts: false,
    explicitActive: false,
    department: null,
  },
  superimmo: {
    weight: 5,
    sellers: ANY,
    transactions: BOTH,
    // Like a MongoDB ObjectId: publication time, random bytes, counter.
    reference: (n, p, rng) =>
      `${Math.floor(p.publishedAt / 1000)
        .toString(16)
        .padStart(8, '0')}${rng.hex(8)}${scramble(n, 2 ** 32, 0xc0ffee)
        .toString(16)
        .padStart(8, '0')}`,
    path: (_p, ref) => `/annonces/${ref}`,
    title: 'typeT',
    transactionLabels: { vente: 'achat', location: 'location' },
    types: 'tNotation',
    price: 'euroSpaced',
    rent: 'perMonthCC',
    surface: 'm2',
    roundsSurface: true,
    energy: 'letter',
    energyValues: false,
    published: 'sql',
    city: [
      ['upper', 6],
      ['abbreviated', 2],
      ['plain', 2],
    ],
    postalCodeAsNumber: false,
    postalCodeMissing: 0.03,
    coordinates: 'precise',
    coordinatesMissing: 0.3,
    descriptionMissing: 0.15,
    descriptionRewritten: 0,
    descriptionTruncated: 0.6,
    separator: ' ',
    photosMissing: 0.05,
    photosSubset: 0.5,
    photosAsString: true,
    booleans: 'boolean',
    sellerLabels: { pro: 'pro', particulier: 'particulier' },
    showsPrivateName: false,
    network: false,
    contactFields: 0,
    fill: { rooms: 0.9, details: 0.3, year: 0.3, dpe: 0.9, ges: 0.8, booleans: 0.3, land: 0.6 },
    unknown: 'omit',
    legalInfo: null,
    charts: false,
    explicitActive: false,
    department: null,
  },
  locamoi: {
    weight: 4,
    sellers: ['agence', 'particulier'],
    transactions: ['location'],
    reference: (n) => `lm_${String(10_000_000 + scramble(n, 90_000_000, 5_550_555))}`,
    path: (_p, ref) => `/annonce/${ref}`,
    title: 'bedroomsSurfaceCity',
    transactionLabels: { vente: 'vente', location: 'location' },
    types: 'short',
    price: 'number',
    rent: 'number',
    surface: 'number',
    roundsSurface: true,
    energy: 'letter',
    energyValues: false,
    published: 'ymd',
    city: [['plain', 1]],
    postalCodeAsNumber: false,
    postalCodeMissing: 0.1,
    coordinates: 'precise',
    coordinatesMissing: 0.7,
    descriptionMissing: 0.85,
    descriptionRewritten: 0,
    descriptionTruncated: 0.5,
    separator: ' ',
    photosMissing: 0.05,
    photosSubset: 0.3,
    photosAsString: false,
    booleans: 'boolean',
    sellerLabels: { pro: 'agence', particulier: 'particulier' },
    showsPrivateName: false,
    network: false,
    contactFields: 0,
    fill: { rooms: 1, details: 0.2, year: 0.1, dpe: 0.6, ges: 0.8, booleans: 0.2, land: 0.5 },
    unknown: 'omit',
    legalInfo: null,
    charts: false,
    explicitActive: false,
    department: null,
  },
  interne: {
    weight: 0.6,
    sellers: ANY,
    transactions: BOTH,
    reference: (n) => `INT-2026-${String(n + 1).padStart(8, '0')}`,
    path: (_p, ref) => `/annonces/${ref}`,
    title: 'free',
    transactionLabels: { vente: 'vente', location: 'location' },
    types: 'formal',
    price: 'number',
    rent: 'number',
    surface: 'number',
    roundsSurface: false,
    energy: 'letter',
    energyValues: true,
    published: 'iso',
    city: [['plain', 1]],
    postalCodeAsNumber: false,
    postalCodeMissing: 0,
    coordinates: 'precise',
    coordinatesMissing: 0,
    descriptionMissing: 0,
    descriptionRewritten: 0,
    descriptionTruncated: 0,
    separator: '\n',
    photosMissing: 0.02,
    photosSubset: 0,
    photosAsString: false,
    booleans: 'boolean',
    sellerLabels: { pro: 'Pro', particulier: 'Particulier' },
    showsPrivateName: false,
    network: true,
    contactFields: 0.5,
    fill: FULL,
    unknown: 'null',
    legalInfo: null,
    charts: false,
    explicitActive: true,
    department: 'code',
  },
};

export interface Site {
  source: string;
  url: string;
  /** Position in sites.json, used to derive per-site photo hashes. */
  index: number;
  quirks: SiteQuirks;
}

const SITES_FILE = fileURLToPath(new URL('../../src/config/sites.json', import.meta.url));

/** The sites of sites.json with their quirks; a site without quirks is a programming error. */
export function loadSites(): Site[] {
  const config = JSON.parse(readFileSync(SITES_FILE, 'utf8')) as { sites: { source: string; url: string }[] };
  return config.sites.map((site, index) => {
    const quirks = QUIRKS[site.source];
    if (!quirks) throw new Error(`indexer/sample/sites.ts has no quirks for site "${site.source}" of sites.json`);
    return { source: site.source, url: site.url, index, quirks };
  });
}

/** Western regions where Ouest-France Immo is strong (Bretagne, Pays de la Loire, Normandie). */
const WEST_REGIONS = new Set(['Bretagne', 'Pays de la Loire', 'Normandie']);

/**
 * The sites a property is listed on, `count` of them, never twice the same; a notary's property
 * always includes the notaries' site.
 */
export function chooseSites(sites: readonly Site[], p: Property, count: number, rng: Rng): Site[] {
  const pool = candidates(sites, p).slice();
  const chosen: Site[] = [];
  if (p.seller.kind === 'notaire') {
    const notaires = pool.findIndex(([site]) => site.source === 'notaires');
    if (notaires >= 0) chosen.push(pool.splice(notaires, 1)[0][0]);
  }
  while (chosen.length < count && pool.length > 0) {
    const picked = rng.weighted(pool);
    chosen.push(picked);
    pool.splice(
      pool.findIndex(([site]) => site === picked),
      1,
    );
  }
  return chosen;
}

/** Eligible sites with their weights, per kind of seller, transaction and region (few combinations, cached). */
const candidateCache = new WeakMap<readonly Site[], Map<string, (readonly [Site, number])[]>>();

function candidates(sites: readonly Site[], p: Property): readonly (readonly [Site, number])[] {
  let bySituation = candidateCache.get(sites);
  if (!bySituation) candidateCache.set(sites, (bySituation = new Map()));
  const west = WEST_REGIONS.has(p.commune.region);
  const key = `${p.seller.kind}|${p.transaction}|${west}`;
  let list = bySituation.get(key);
  if (!list) {
    list = sites
      .filter((site) => site.quirks.sellers.includes(p.seller.kind) && site.quirks.transactions.includes(p.transaction))
      .map((site) => [site, weightOf(site, west)] as const);
    bySituation.set(key, list);
  }
  return list;
}

function weightOf(site: Site, west: boolean): number {
  if (site.source === 'ouestfrance-immo') return site.quirks.weight * (west ? 4 : 0.4);
  if (site.source === 'locamoi') return site.quirks.weight * 3;
  return site.quirks.weight;
}

/** FNV-1a of a string: stable ids derived from names (agency codes in Bien'ici references). */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
