/**
 * Over 300 lines on purpose: word lists and text templates, data tables read as a whole.
 *
 * French text of the sample listings: the features vocabulary, the sellers' own titles and
 * descriptions (templates filled from the property), the titles each site builds, and the ways a
 * site rewrites a description it republishes.
 *
 * Word frequencies matter to the benchmarks: "lumineux" is in about a quarter of descriptions (a
 * common word), "pigeonnier", "orangerie" and "tomettes" are rare. No other template writes them.
 */
import type { Commune } from '../../src/core/refdata/communes.js';
import { frenchNumber } from './formats.js';
import type { HouseStyle, Property, PropertyKind, Transaction } from './model.js';
import { placeInProse } from './places.js';
import type { Rng } from './prng.js';
import { emailInProse, phoneInProse } from './sellers.js';

/** Share of descriptions written with "lumineux" (slightly above 25 %: some copies are truncated or dropped). */
export const LUMINOUS_SHARE = 0.255;

interface Feature {
  key: string;
  probability: number;
  phrases: readonly string[];
}

const APARTMENT_FEATURES: readonly Feature[] = [
  { key: 'balcon', probability: 0.25, phrases: ['balcon', 'balcon filant', 'grand balcon'] },
  { key: 'terrasse', probability: 0.1, phrases: ['terrasse', 'belle terrasse', 'terrasse sans vis-à-vis'] },
  { key: 'parquet', probability: 0.3, phrases: ['parquet', 'parquet ancien', 'parquet en chêne', 'parquet massif'] },
  { key: 'moulures', probability: 0.1, phrases: ['moulures', 'moulures au plafond'] },
  { key: 'cheminee', probability: 0.12, phrases: ['cheminée', 'cheminée en marbre', 'cheminée décorative'] },
  { key: 'double_vitrage', probability: 0.2, phrases: ['double vitrage'] },
  { key: 'gardien', probability: 0.08, phrases: ['gardien', 'gardienne'] },
  { key: 'interphone', probability: 0.1, phrases: ['digicode et interphone', 'visiophone'] },
  { key: 'traversant', probability: 0.1, phrases: ['traversant', 'double exposition'] },
  { key: 'vue_degagee', probability: 0.1, phrases: ['vue dégagée', 'belle vue dégagée'] },
  { key: 'renove', probability: 0.18, phrases: ['entièrement rénové', 'refait à neuf', 'rénovation récente'] },
  { key: 'a_rafraichir', probability: 0.1, phrases: ['à rafraîchir', 'quelques travaux à prévoir'] },
  { key: 'climatisation', probability: 0.06, phrases: ['climatisation', 'climatisation réversible'] },
  { key: 'tomettes', probability: 0.002, phrases: ['tomettes anciennes', 'sol en tomettes'] },
];

const HOUSE_FEATURES: readonly Feature[] = [
  { key: 'garage', probability: 0.45, phrases: ['garage', 'garage double', 'garage attenant'] },
  { key: 'piscine', probability: 0.12, phrases: ['piscine', 'piscine chauffée', 'piscine 10 x 5'] },
  { key: 'sous_sol', probability: 0.2, phrases: ['sous-sol complet', 'sous-sol'] },
  { key: 'veranda', probability: 0.08, phrases: ['véranda'] },
  { key: 'cheminee', probability: 0.3, phrases: ['cheminée', 'cheminée avec insert', 'poêle à bois'] },
  { key: 'terrasse', probability: 0.3, phrases: ['terrasse', 'terrasse couverte', 'grande terrasse'] },
  { key: 'parquet', probability: 0.2, phrases: ['parquet', 'parquet en chêne'] },
  { key: 'combles', probability: 0.1, phrases: ['combles aménageables'] },
  { key: 'poutres', probability: 0.1, phrases: ['poutres apparentes'] },
  { key: 'dependance', probability: 0.1, phrases: ['dépendance', 'dépendances', 'grange attenante'] },
  { key: 'pierre', probability: 0.12, phrases: ['murs en pierre', 'belle bâtisse en pierre'] },
  { key: 'double_vitrage', probability: 0.2, phrases: ['double vitrage'] },
  { key: 'renove', probability: 0.15, phrases: ['entièrement rénovée', 'rénovation de qualité'] },
  { key: 'a_rafraichir', probability: 0.12, phrases: ['à rafraîchir', 'travaux à prévoir'] },
  { key: 'puits', probability: 0.02, phrases: ['puits'] },
  { key: 'tomettes', probability: 0.004, phrases: ['tomettes anciennes', 'sol en tomettes'] },
  { key: 'pigeonnier', probability: 0.0014, phrases: ['pigeonnier', 'ancien pigeonnier restauré'] },
  { key: 'orangerie', probability: 0.0009, phrases: ['orangerie', "orangerie d'époque"] },
];

const SEASIDE_DEPARTMENTS = new Set([
  '06',
  '83',
  '13',
  '2A',
  '2B',
  '64',
  '40',
  '33',
  '17',
  '85',
  '44',
  '56',
  '29',
  '22',
  '35',
  '50',
  '14',
  '76',
  '80',
  '62',
  '66',
  '11',
  '34',
  '30',
  '971',
  '972',
  '974',
  '976',
]);
const MOUNTAIN_DEPARTMENTS = new Set(['73', '74', '05', '04', '38', '65', '64', '09', '66', '15', '63', '2A', '2B']);
const METRO_CITIES = new Set(['Paris', 'Lyon', 'Marseille', 'Lille', 'Toulouse', 'Rennes']);

/** The selling points of a property, drawn once so that every site copy mentions the same ones. */
export function pickFeatures(kind: PropertyKind, commune: Commune, rng: Rng): string[] {
  const table = kind === 'maison' ? HOUSE_FEATURES : kind === 'appartement' ? APARTMENT_FEATURES : [];
  const keys = table.filter((feature) => rng.chance(feature.probability)).map((feature) => feature.key);
  if (keys.includes('renove') && keys.includes('a_rafraichir')) keys.splice(keys.indexOf('a_rafraichir'), 1);
  if ((kind === 'appartement' || kind === 'maison') && SEASIDE_DEPARTMENTS.has(commune.department) && rng.chance(0.12)) keys.push('vue_mer');
  if ((kind === 'appartement' || kind === 'maison') && MOUNTAIN_DEPARTMENTS.has(commune.department) && rng.chance(0.1)) keys.push('vue_montagne');
  return keys;
}

function featurePhrase(key: string, rng: Rng): string {
  if (key === 'vue_mer') return rng.pick(['vue mer', 'belle vue mer', 'vue sur la mer']);
  if (key === 'vue_montagne') return rng.pick(['vue montagne', 'vue sur les montagnes']);
  const feature = APARTMENT_FEATURES.find((f) => f.key === key) ?? HOUSE_FEATURES.find((f) => f.key === key);
  return feature ? rng.pick(feature.phrases) : key;
}

function listInProse(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} et ${items[items.length - 1]}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const m2 = (value: number) => `${frenchNumber(value)} m²`;
const euros = (value: number) => `${frenchNumber(value)} €`;

const HOUSE_NOUNS: Record<HouseStyle, readonly string[]> = {
  maison: ['maison', 'maison familiale', 'belle maison'],
  'maison de ville': ['maison de ville'],
  villa: ['villa', 'villa contemporaine'],
  pavillon: ['pavillon', 'pavillon individuel'],
};

const KIND_NOUNS: Record<PropertyKind, string> = {
  appartement: 'appartement',
  maison: 'maison',
  terrain: 'terrain',
  parking: 'parking',
  local: 'local commercial',
  bureaux: 'bureaux',
  immeuble: 'immeuble',
};

/** The noun a title uses for the property ("Appartement", "Villa", "Local commercial"...). */
export function kindNoun(p: Property): string {
  if (p.kind === 'maison' && p.houseStyle) return p.houseStyle === 'maison' ? 'maison' : p.houseStyle;
  if (p.kind === 'appartement' && p.rooms === 1) return 'studio';
  return KIND_NOUNS[p.kind];
}

function floorInProse(floor: number, buildingFloors: number | null): string {
  if (floor === 0) return 'rez-de-chaussée';
  if (buildingFloors !== null && floor === buildingFloors && floor > 1) return 'dernier étage';
  return floor === 1 ? '1er étage' : `${floor}e étage`;
}

function buildingInProse(p: Property, rng: Rng): string {
  const year = p.yearBuilt;
  if (year !== null && year < 1914 && p.commune.name === 'Paris') return rng.pick(['un immeuble haussmannien', 'un bel immeuble en pierre de taille']);
  if (year !== null && year < 1948) return rng.pick(['un immeuble ancien', 'un immeuble de caractère', 'un immeuble en pierre']);
  if (year !== null && year >= 2010) return rng.pick(['une résidence récente', 'une résidence de standing', 'une résidence neuve']);
  if (year !== null && year >= 1960 && year < 1980)
    return rng.pick(['un immeuble des années 70', 'une résidence des années 60', 'une copropriété bien entretenue']);
  return rng.pick(['une petite copropriété', 'une résidence sécurisée', 'un immeuble bien entretenu', 'une copropriété calme']);
}

function opener(p: Property, rng: Rng): string {
  const place = placeInProse(p.commune);
  if (p.seller.kind === 'particulier') {
    return p.transaction === 'vente'
      ? rng.pick([`Particulier vend à ${place}`, `À vendre à ${place}`, `Je vends à ${place}`])
      : rng.pick([`Particulier loue à ${place}`, `À louer à ${place}`, `Je loue à ${place}`]);
  }
  if (p.seller.kind === 'notaire') return rng.pick([`Notaire vend à ${place}`, `Exclusivité notariale à ${place}`]);
  switch (rng.weighted(p.exclusive ? OPENERS_EXCLUSIVE : OPENERS)) {
    case 'agency':
      return `${p.seller.name} vous propose à ${place}`;
    case 'exclusive':
      return `Exclusivité à ${place}`;
    case 'new':
      return `Nouveauté à ${place}`;
    case 'heart':
      return `Au cœur de ${place}`;
    default:
      return `${p.transaction === 'vente' ? 'À vendre' : 'À louer'} à ${place}`;
  }
}

type Opener = 'plain' | 'agency' | 'exclusive' | 'new' | 'heart';
const OPENERS: readonly (readonly [Opener, number])[] = [
  ['plain', 4],
  ['agency', 2],
  ['new', 1],
  ['heart', 2],
];
const OPENERS_EXCLUSIVE: readonly (readonly [Opener, number])[] = [...OPENERS, ['exclusive', 3]];

/** A main room qualified with the common word when the property is described as luminous. */
function mainRoom(luminous: boolean, rng: Rng, surface: number | null): string {
  const noun = rng.pick(['séjour', 'salon', 'séjour double', 'salon-séjour']);
  const size = surface !== null ? ` de ${m2(surface)}` : '';
  return luminous ? rng.pick([`${noun} lumineux${size}`, `${noun}${size} très lumineux`]) : `${noun}${size}`;
}

function rooms(n: number): string {
  return n === 1 ? 'une chambre' : `${n} chambres`;
}

function apartmentSentences(p: Property, luminous: boolean, rng: Rng): string[] {
  const surface = p.surface ?? 0;
  const floor = floorInProse(p.floor ?? 0, p.buildingFloors);
  const lift = p.elevator ? ' avec ascenseur' : p.elevator === false && (p.floor ?? 0) > 1 ? ' sans ascenseur' : '';
  const building = buildingInProse(p, rng);
  const out: string[] = [];
  const head = opener(p, rng);
  if (p.rooms === 1) {
    out.push(`${head}, studio de ${m2(surface)} situé au ${floor}${lift} d'${building}.`);
    out.push(
      `Il se compose d'une pièce principale${luminous ? " lumineuse et d'un coin nuit lumineux" : ''}, d'une ${p.kitchen === 'kitchenette' ? 'kitchenette' : `cuisine ${p.kitchen ?? 'équipée'}`} et d'une salle d'eau avec WC.`,
    );
  } else {
    out.push(
      rng.pick([
        `${head}, appartement de ${p.rooms} pièces de ${m2(surface)} situé au ${floor}${lift} d'${building}.`,
        `${head}, dans ${building}, bel appartement T${p.rooms} de ${m2(surface)} au ${floor}${lift}.`,
        `${head} : ${p.rooms} pièces de ${m2(surface)} au ${floor}${lift} d'${building}.`,
      ]),
    );
    const parts = [
      'une entrée',
      `un ${mainRoom(luminous, rng, p.livingRoomSurface)}`,
      p.kitchen ? `une cuisine ${p.kitchen}` : 'une cuisine',
      rooms(p.bedrooms ?? 1),
      (p.bathrooms ?? 0) > 0 ? 'une salle de bains' : "une salle d'eau",
    ];
    if ((p.toilets ?? 1) > 0) parts.push('un WC séparé');
    const verb = rng.pick(['Il se compose de', 'Il comprend', 'Vous y trouverez']);
    out.push(verb === 'Il se compose de' ? `Il se compose ${listInProse(parts.map(withDe))}.` : `${verb} ${listInProse(parts)}.`);
  }
  return out;
}

/** "une entrée" -> "d'une entrée", "2 chambres" -> "de 2 chambres" (after "se compose"). */
function withDe(phrase: string): string {
  return /^une? /.test(phrase) ? `d'${phrase}` : `de ${phrase}`;
}

function houseSentences(p: Property, luminous: boolean, rng: Rng): string[] {
  const noun = rng.pick(HOUSE_NOUNS[p.houseStyle ?? 'maison']);
  const surface = p.surface ?? 0;
  const land = p.landSurface !== null ? ` sur un terrain de ${m2(p.landSurface)}` : '';
  const year = p.yearBuilt !== null && rng.chance(0.5) ? ` construite en ${p.yearBuilt}` : '';
  const out = [`${opener(p, rng)}, ${noun} de ${p.rooms} pièces et ${m2(surface)}${year}${land}.`];
  const bedrooms = p.bedrooms ?? 2;
  const downstairs = Math.min(bedrooms, rng.int(0, 1));
  const ground = [mainRoom(luminous, rng, p.livingRoomSurface), p.kitchen ? `cuisine ${p.kitchen}` : 'cuisine'];
  if (downstairs > 0) ground.push('une chambre');
  if ((p.showerRooms ?? 0) > 0) ground.push("salle d'eau");
  const upstairs = bedrooms - downstairs > 0 ? rooms(bedrooms - downstairs) : 'une mezzanine';
  out.push(`Au rez-de-chaussée : ${listInProse(ground)}. À l'étage : ${upstairs}${(p.bathrooms ?? 0) > 0 ? ' et une salle de bains' : ''}.`);
  if (p.garden) out.push(rng.pick(['Jardin arboré et clos.', 'Beau jardin paysager sans vis-à-vis.', 'Jardin clos.']));
  return out;
}

function otherSentences(p: Property, rng: Rng): string[] {
  const head = opener(p, rng);
  switch (p.kind) {
    case 'terrain':
      return [
        `${head}, terrain ${rng.pick(['constructible', 'à bâtir', 'constructible et viabilisé'])} de ${m2(p.landSurface ?? 0)}.`,
        rng.pick(['Libre de constructeur.', 'Exposition sud, terrain plat.', 'Raccordements en bordure.', 'Belle parcelle en lotissement.']),
      ];
    case 'parking':
      return [
        `${head}, ${rng.pick(['place de parking en sous-sol', 'box fermé', 'garage individuel', 'place de stationnement'])}${p.surface ? ` de ${m2(p.surface)}` : ''}.`,
        rng.pick(['Accès sécurisé par bip.', 'Porte automatique.', 'Résidence sécurisée.']),
      ];
    case 'local':
      return [
        `${head}, local commercial de ${m2(p.surface ?? 0)} avec vitrine de ${rng.int(4, 12)} mètres.`,
        rng.pick(['Tous commerces sauf nuisances.', 'Emplacement n°1, fort passage.', 'Bail 3/6/9.', 'Réserve et sanitaires.']),
      ];
    case 'bureaux':
      return [
        `${head}, plateau de bureaux de ${m2(p.surface ?? 0)} ${rng.pick(['en open space', 'cloisonné', 'en étage élevé'])}.`,
        `${rng.int(2, 12)} bureaux, salle de réunion, ${rng.pick(['climatisation', 'fibre optique', 'accès PMR'])}.`,
      ];
    case 'immeuble':
      return [
        `${head}, immeuble de rapport de ${m2(p.surface ?? 0)} comprenant ${rng.int(3, 14)} lots.`,
        rng.pick(['Entièrement loué.', 'Bon état général, toiture refaite.', `Rentabilité brute de ${frenchNumber(rng.int(45, 85) / 10)} %.`]),
      ];
    default:
      return [];
  }
}

function featureSentence(p: Property, rng: Rng): string | null {
  const phrases = p.features.map((key) => featurePhrase(key, rng));
  if (p.cellar) phrases.push('cave');
  if (p.parking) phrases.push(p.parkingInterior ? 'parking en sous-sol' : 'place de parking');
  if (phrases.length === 0) return null;
  return rng.pick([`${capitalise(listInProse(phrases))}.`, `Les plus : ${listInProse(phrases)}.`, `Prestations : ${listInProse(phrases)}.`]);
}

function locationSentence(commune: Commune, rng: Rng): string | null {
  if (rng.chance(0.3)) return null;
  const urban = commune.population > 30_000;
  const pool = urban
    ? ['proche commerces', 'proche écoles', 'proche transports', 'proche gare', 'quartier recherché', 'au calme']
    : ['proche commerces', 'proche écoles', 'à 5 minutes du centre-bourg', 'en campagne', 'au calme', 'proche axes routiers'];
  if (METRO_CITIES.has(commune.name)) pool.push('à deux pas du métro', 'à deux pas du métro');
  return `${capitalise(listInProse(rng.sample(pool, rng.int(1, 3))))}.`;
}

function moneySentence(p: Property, rng: Rng): string | null {
  if (p.transaction === 'location') {
    const provisions = Math.round(p.price * rng.float(0.04, 0.1));
    const deposit = p.furnished ? (p.price - provisions) * 2 : p.price - provisions;
    return `Loyer ${euros(p.price)} charges comprises dont ${euros(provisions)} de provisions sur charges. Dépôt de garantie : ${euros(deposit)}.`;
  }
  if (p.kind === 'appartement' && rng.chance(0.6)) {
    return `Copropriété de ${rng.int(6, 180)} lots, charges annuelles : ${euros(rng.int(4, 60) * 100)}.`;
  }
  if (p.kind === 'maison' && rng.chance(0.4)) return `Taxe foncière : ${euros(rng.int(6, 40) * 50)}.`;
  return null;
}

function contactSentence(p: Property, rng: Rng): string {
  if (rng.chance(0.7)) {
    const phone = phoneInProse(p.seller.phone, rng);
    return rng.pick([`Contact : ${phone}.`, `Pour visiter, appelez le ${phone}.`, `Tél. ${phone}`, `Renseignements au ${phone} (pas de SMS).`]);
  }
  const email = emailInProse(p.seller.email, rng);
  return rng.pick([`Contact par mail : ${email}.`, `Écrivez-moi à ${email}.`, `Plus d'informations : ${email}`]);
}

const CLOSINGS: Record<Transaction, readonly string[]> = {
  vente: [
    'À visiter sans tarder !',
    'Coup de cœur assuré.',
    'Idéal investisseur.',
    'Idéal première acquisition.',
    'Visite virtuelle disponible.',
    'Libre rapidement.',
    'Contactez-nous pour une visite.',
    'Rare sur le secteur.',
  ],
  location: [
    'À visiter sans tarder !',
    'Disponible immédiatement.',
    'Libre au 1er du mois prochain.',
    'Visite virtuelle disponible.',
    'Garants demandés.',
    'Contactez-nous pour une visite.',
    'Idéal étudiant ou jeune actif.',
  ],
};

/** The seller's description, sentence by sentence. */
export function describe(p: Property, luminous: boolean, withContact: boolean, rng: Rng): string[] {
  const out = p.kind === 'appartement' ? apartmentSentences(p, luminous, rng) : p.kind === 'maison' ? houseSentences(p, luminous, rng) : otherSentences(p, rng);
  if (luminous && p.kind !== 'appartement' && p.kind !== 'maison') out.push(rng.pick(['Espace lumineux.', 'Très lumineux.']));
  for (const sentence of [featureSentence(p, rng), locationSentence(p.commune, rng), moneySentence(p, rng)]) {
    if (sentence) out.push(sentence);
  }
  if (p.furnished) out.push('Location meublée.');
  if (rng.chance(0.5)) out.push(rng.pick(CLOSINGS[p.transaction]));
  if (withContact) out.push(contactSentence(p, rng));
  return out;
}

/** The title a seller writes when the site lets them (leboncoin, PAP...). */
export function freeTitle(p: Property, rng: Rng): string {
  const noun = capitalise(kindNoun(p));
  const surface = p.surface !== null ? `${frenchNumber(Math.round(p.surface))} m²` : '';
  const feature = p.features.length > 0 ? featurePhrase(rng.pick(p.features), rng) : null;
  switch (p.kind) {
    case 'appartement':
      return rng
        .pick([
          `${noun} T${p.rooms} ${surface}`,
          p.rooms === 1 ? `Studio${feature ? ` avec ${feature}` : ''}` : `Bel appartement ${p.rooms} pièces${feature ? ` avec ${feature}` : ''}`,
          p.rooms === 1 ? `Studio ${placeInProse(p.commune)}` : `${noun} ${p.rooms} pièces ${placeInProse(p.commune)}`,
          `T${p.rooms} ${feature ?? 'proche centre'}`,
        ])
        .trim();
    case 'maison':
      return rng
        .pick([
          `${noun} ${p.rooms} pièces ${surface}`,
          `${noun} avec ${p.garden ? 'jardin' : (feature ?? 'garage')}`,
          `Belle ${kindNoun(p)} familiale`,
          `${noun} ${surface} ${placeInProse(p.commune)}`,
        ])
        .trim();
    case 'terrain':
      return `Terrain ${rng.pick(['constructible', 'à bâtir'])} ${frenchNumber(p.landSurface ?? 0)} m²`;
    default:
      return `${noun} ${surface}`.trim();
  }
}

export type TitleStyle =
  | 'free'
  | 'typeRoomsSurface'
  | 'typeRoomsSurfaceCity'
  | 'transactionTypeCity'
  | 'notaires'
  | 'surfaceToTransact'
  | 'transactionTypeCityPostal'
  | 'typeCitySurface'
  | 'bedroomsSurfaceCity'
  | 'typeT';

const TRANSACTION_VERBS: Record<Transaction, string> = { vente: 'Vente', location: 'Location' };

/** Collapses the gaps an empty part leaves ("Parking  à Lyon"); the common case has none. */
function clean(text: string): string {
  if (!text.includes('  ') && !text.includes(' ,') && !text.endsWith(' ') && !text.startsWith(' ')) return text;
  return text.replace(/\s+/g, ' ').replace(/ ,/g, ',').trim();
}

/** The title a site builds from structured data, e.g. SeLoger's "Appartement 3 pièces 65 m²". */
export function siteTitle(style: TitleStyle, p: Property, surface: number | null, city: string, rng: Rng): string {
  const noun = capitalise(kindNoun(p));
  const size = surface !== null ? `${frenchNumber(surface)} m²` : '';
  const roomsText = p.rooms !== null && p.kind !== 'terrain' && p.kind !== 'parking' ? `${p.rooms} pièce${p.rooms > 1 ? 's' : ''}` : '';
  const toDo = p.transaction === 'vente' ? 'à vendre' : 'à louer';
  const postal = p.commune.postalCode;
  const verb = TRANSACTION_VERBS;
  switch (style) {
    case 'free':
      return freeTitle(p, rng);
    case 'typeRoomsSurface':
      return clean(`${noun} ${roomsText} ${size}`);
    case 'typeRoomsSurfaceCity':
      return clean(`${noun} ${roomsText} ${size} à ${city}`);
    case 'transactionTypeCity':
      return clean(`${verb[p.transaction]} ${kindNoun(p)} ${roomsText} ${city}`);
    case 'notaires':
      return clean(
        `${p.transaction === 'vente' ? 'Achat' : 'Location'} :${noun}${p.rooms && p.kind === 'appartement' ? ` T${p.rooms}` : ''}- ${city} - ${p.commune.departmentName} (${p.commune.department})`,
      );
    case 'surfaceToTransact':
      return clean(`${noun} de ${size} ${toDo}, ${city}`);
    case 'transactionTypeCityPostal':
      return clean(`${verb[p.transaction]} ${noun} ${roomsText} ${city} (${postal})`);
    case 'typeCitySurface':
      return clean(`${noun} ${toDo} - ${city} - ${size}`);
    case 'bedroomsSurfaceCity': {
      const bedrooms = p.bedrooms ?? 1;
      return clean(`${bedrooms} chambre${bedrooms > 1 ? 's' : ''} ${kindNoun(p)} de ${surface !== null ? `${Math.round(surface)}m²` : ''} à ${city}`);
    }
    case 'typeT':
      return clean(
        p.kind === 'appartement' ? `Appartement T${p.rooms} ${surface !== null ? `${Math.round(surface)}m2` : ''} ${city}` : `${noun} ${size} ${city}`,
      );
  }
}

const SYNONYMS: readonly (readonly [RegExp, string])[] = [
  [/Proche commerces/g, 'À proximité des commerces'],
  [/proche commerces/g, 'à proximité des commerces'],
  [/Il comprend/g, 'Vous y trouverez'],
  [/À visiter sans tarder !/g, 'À découvrir rapidement.'],
  [/charges annuelles/g, 'charges de copropriété annuelles'],
  [/Les plus : /g, 'Atouts : '],
  [/Prestations : /g, 'Équipements : '],
  [/ très lumineux/g, ' lumineux'],
];

/** A republished description: other wording, sentences reordered after the first, a site's own intro. */
export function rewrite(sentences: readonly string[], rng: Rng): string[] {
  const [first, ...rest] = sentences.map((sentence) => SYNONYMS.reduce((text, [from, to]) => text.replace(from, to), sentence));
  const middle = rest.slice();
  for (let i = middle.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [middle[i], middle[j]] = [middle[j], middle[i]];
  }
  const intro = rng.pick(['', '', 'EXCLUSIF !', 'NOUVEAU', 'Réf. agence disponible sur demande.', 'Bien rare.']);
  return [...(intro ? [intro] : []), first, ...middle];
}
