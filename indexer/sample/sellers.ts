/**
 * Who sells: private sellers (Particulier) and professionals, whose agency names come from a small
 * realistic list (networks such as Century 21 or Orpi, and independent agencies), plus the contact
 * data collectors sometimes capture (phone and e-mail, which the indexer must drop or redact).
 */
import type { Commune } from '../../src/core/refdata/communes.js';
import { stripAccents } from './places.js';
import type { Rng } from './prng.js';

export type SellerKind = 'particulier' | 'agence' | 'notaire';

export interface Seller {
  kind: SellerKind;
  /** Agency or notarial office name; for a private seller, the first name some sites show. */
  name: string;
  network: string | null;
  phone: string;
  email: string;
}

/** Networks and the share of professional listings they carry. */
const NETWORKS: readonly (readonly [string, number])[] = [
  ['Century 21', 9],
  ['Orpi', 9],
  ['Laforêt', 6],
  ['Guy Hoquet', 5],
  ['IAD', 8],
  ['Stéphane Plaza Immobilier', 4],
  ['ERA Immobilier', 3],
  ['Nestenn', 3],
  ['Foncia', 4],
  ['Citya', 2],
  ['Square Habitat', 3],
  ['Safti', 4],
  ['Capifrance', 3],
];

const AGENCY_PLACES = [
  'de la Gare',
  'du Centre',
  'de la Mairie',
  'du Parc',
  'des Halles',
  'du Marché',
  'Saint-Louis',
  'des Quais',
  'du Château',
  'de la Cathédrale',
  'Victor Hugo',
  'Jean Jaurès',
  'République',
  'Gambetta',
];

const INDEPENDENT_PATTERNS = [
  'Cabinet {surname} Immobilier',
  'Agence {place}',
  'Immobilière {place}',
  '{surname} & Associés',
  "L'Adresse {city}",
  'Agence {surname}',
  '{city} Immobilier',
  'Cabinet {surname}',
  'Les Clés de {city}',
  'Immo {surname}',
];

const SURNAMES = [
  'Martin',
  'Bernard',
  'Dubois',
  'Thomas',
  'Robert',
  'Richard',
  'Petit',
  'Durand',
  'Leroy',
  'Moreau',
  'Simon',
  'Laurent',
  'Lefèvre',
  'Michel',
  'Garcia',
  'David',
  'Bertrand',
  'Roux',
  'Vincent',
  'Fournier',
  'Morel',
  'Girard',
  'André',
  'Mercier',
  'Dupont',
  'Lambert',
  'Bonnet',
  'François',
  'Martinez',
  'Legrand',
  'Garnier',
  'Faure',
  'Rousseau',
  'Blanc',
  'Guérin',
  'Muller',
  'Henry',
  'Roussel',
  'Nicolas',
  'Perrin',
  'Morin',
  'Mathieu',
  'Clément',
];

const FIRST_NAMES = [
  'Sophie',
  'Nicolas',
  'Isabelle',
  'Julien',
  'Nathalie',
  'Thomas',
  'Céline',
  'Pierre',
  'Camille',
  'Jean-Pierre',
  'Marie',
  'Laurent',
  'Émilie',
  'François',
  'Aurélie',
  'Philippe',
  'Sandrine',
  'Olivier',
  'Claire',
  'Hélène',
];

const MAIL_DOMAINS = ['gmail.com', 'orange.fr', 'hotmail.fr', 'free.fr', 'wanadoo.fr', 'yahoo.fr', 'sfr.fr', 'laposte.net'];

/** First digit of a landline number by department (01 Île-de-France, 02 north-west, ...). */
function landlinePrefix(department: string): string {
  if (['75', '77', '78', '91', '92', '93', '94', '95'].includes(department)) return '01';
  if (
    ['14', '18', '22', '27', '28', '29', '35', '36', '37', '41', '44', '45', '49', '50', '53', '56', '61', '72', '76', '85', '974', '976'].includes(department)
  )
    return '02';
  if (
    ['01', '03', '05', '04', '06', '07', '13', '15', '26', '2A', '2B', '30', '34', '38', '42', '43', '48', '63', '69', '73', '74', '83', '84'].includes(
      department,
    )
  )
    return '04';
  if (
    [
      '09',
      '11',
      '12',
      '16',
      '17',
      '19',
      '23',
      '24',
      '31',
      '32',
      '33',
      '40',
      '46',
      '47',
      '64',
      '65',
      '66',
      '79',
      '81',
      '82',
      '86',
      '87',
      '971',
      '972',
      '973',
    ].includes(department)
  )
    return '05';
  return '03';
}

function digits(rng: Rng, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += String(rng.int(0, 9));
  return out;
}

const slugs = new Map<string, string>();

/** "Guy Hoquet Saint-Étienne" -> "guy-hoquet-saint-etienne"; memoised in a bounded cache. */
function slug(text: string): string {
  let value = slugs.get(text);
  if (value === undefined) {
    value = stripAccents(text)
      .toLowerCase()
      .replace(/&/g, 'et')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    if (slugs.size >= 100_000) slugs.clear();
    slugs.set(text, value);
  }
  return value;
}

/** A ten-digit French number without separators, e.g. "0612345678". */
export function phoneNumber(rng: Rng, mobile: boolean, department: string): string {
  return (mobile ? rng.pick(['06', '07']) : landlinePrefix(department)) + digits(rng, 8);
}

export function createSeller(kind: SellerKind, commune: Commune, rng: Rng): Seller {
  if (kind === 'particulier') {
    const first = rng.pick(FIRST_NAMES);
    const surname = rng.pick(SURNAMES);
    const email = rng.chance(0.5)
      ? `${slug(first)}.${slug(surname)}@${rng.pick(MAIL_DOMAINS)}`
      : `${slug(first)}${slug(surname).slice(0, 3)}${rng.int(10, 99)}@${rng.pick(MAIL_DOMAINS)}`;
    return { kind, name: first, network: null, phone: phoneNumber(rng, true, commune.department), email };
  }
  if (kind === 'notaire') {
    const name = rng.chance(0.5) ? `Office notarial ${rng.pick(AGENCY_PLACES)}` : `SCP ${rng.pick(SURNAMES)}, ${rng.pick(SURNAMES)} et Associés, notaires`;
    return { kind, name, network: null, phone: phoneNumber(rng, false, commune.department), email: `negociation.${slug(commune.name)}@notaires.fr` };
  }
  return createAgency(commune, rng);
}

export function createAgency(commune: Commune, rng: Rng): Seller {
  const city = commune.name;
  // E-mail domains are built from the name's parts, whose slugs are few and memoised.
  if (rng.chance(0.6)) {
    const network = rng.weighted(NETWORKS);
    const mobile = network === 'IAD' || network === 'Safti' || network === 'Capifrance';
    let name: string;
    let domain: string;
    if (mobile) {
      // Networks of independent agents publish under the agent's name.
      const first = rng.pick(FIRST_NAMES);
      const surname = rng.pick(SURNAMES);
      name = `${network} - ${first} ${surname}`;
      domain = `${slug(first)}.${slug(surname)}@${slug(network)}`;
    } else if (rng.chance(0.5)) {
      name = `${network} ${city}`;
      domain = `contact@${slug(network)}-${slug(city)}`;
    } else {
      const place = rng.pick(AGENCY_PLACES);
      name = `${network} Agence ${place}`;
      domain = `agence-${slug(place)}@${slug(network)}`;
    }
    return { kind: 'agence', name, network, phone: phoneNumber(rng, mobile, commune.department), email: `${domain}.fr` };
  }
  const surname = rng.pick(SURNAMES);
  const place = rng.pick(AGENCY_PLACES);
  const pattern = rng.pick(INDEPENDENT_PATTERNS);
  const name = pattern.replace('{surname}', surname).replace('{place}', place).replace('{city}', city);
  const stem = pattern.includes('{surname}') ? slug(surname) : pattern.includes('{place}') ? slug(place) : slug(city);
  return { kind: 'agence', name, network: null, phone: phoneNumber(rng, false, commune.department), email: `contact@${stem}-immobilier.fr` };
}

/** A phone number as people type it in a description: "06 12 34 56 78", "+33 6 12 34 56 78"... */
export function phoneInProse(number: string, rng: Rng): string {
  const pairs = number.match(/../g) ?? [number];
  const national = number.slice(1);
  return rng.weighted<string>([
    [pairs.join(' '), 4],
    [pairs.join('.'), 2],
    [number, 2],
    [`+33 ${national[0]} ${national.slice(1).match(/../g)?.join(' ')}`, 2],
    [`+33 (0)${national[0]} ${national.slice(1).match(/../g)?.join(' ')}`, 1],
    [`0033 ${national[0]} ${national.slice(1).match(/../g)?.join(' ')}`, 1],
    [pairs.join('-'), 1],
  ]);
}

/** An e-mail address as people write it to dodge robots: "@", " arobase ", "[at]", "(at)". */
export function emailInProse(email: string, rng: Rng): string {
  const [user, domain] = email.split('@');
  return rng.weighted<string>([
    [email, 5],
    [`${user} arobase ${domain}`, 2],
    [`${user}[at]${domain}`, 2],
    [`${user} (at) ${domain}`, 1],
  ]);
}
