/**
 * Where a listing is: city, postal code, department, region and coordinates, completed from the
 * commune table when the record gives only part of them.
 */
import type { Commune, CommuneTable } from '../../src/core/refdata/communes.js';
import { foldText } from '../../src/core/refdata/text.js';
import type { RawRecord } from '../raw-record.js';
import { textOf } from './text.js';
import { MAX_LABEL_LENGTH, parseCoordinate, roundCoordinate } from './numbers.js';

interface Place {
  city: string | null;
  postalCode: string | null;
  department: string | null;
  region: string | null;
  latitude: number | null;
  longitude: number | null;
}

const POSTAL_CODE_IN_TEXT = /(?<!\d)(\d{5})(?!\d)/;
const POSTAL_CODE_SPACED = /^(\d{2})\s(\d{3})$/;
const PARENTHESES = /\(([^()]*)\)/g;
const DEPARTMENT_CODE = /^(?:\d{2,3}|2[ABab])$/;
const DEPARTMENT_IN_PARENTHESES = /\(([0-9]{1,3}|2[ABab])\)/;
const FOUR_DIGITS = /^\d{4}$/;
const ONE_DIGIT = /^\d$/;
const CITY_PARTS = /\s+-\s+|\s*[,;/|]\s*/;
const CITY_TRIM = /^[\s\-–,.;:]+|[\s\-–,.;:]+$/g;
const COUNTRY = /^(?:france|fr)$/i;
/** A street address, not a city: starts with a number or names a kind of street. */
const STREET = /^\d|\b(?:rue|avenue|av|bd|boulevard|chemin|all[ée]e|place|impasse|route|square|quai|cours|r[ée]sidence|lotissement)\b/i;
/** `Paris 8`, `Paris 8e`, `Lyon 3ème`, `Marseille 13e arrondissement`, `Paris 1er`. */
const ARRONDISSEMENT = /^(paris|lyon|marseille)\s*(\d{1,2})\s*(?:er|e|eme|ème|è|°)?(?:\s*arr(?:ondissement|\.)?)?$/i;
const ARRONDISSEMENT_PREFIX: Record<string, { prefix: string; count: number }> = {
  paris: { prefix: '750', count: 20 },
  lyon: { prefix: '6900', count: 9 },
  marseille: { prefix: '130', count: 16 },
};

/** Folded commune names, computed once per commune and only when a prefix match is needed. */
const foldedCommuneNames = new WeakMap<Commune, string>();
function foldedName(commune: Commune): string {
  let folded = foldedCommuneNames.get(commune);
  if (folded === undefined) {
    folded = foldText(commune.name);
    foldedCommuneNames.set(commune, folded);
  }
  return folded;
}

/**
 * City, postal code, department, region and position, completed and corrected from the commune
 * table: the postal code's communes give the official city name; a lone commune fills a missing
 * city; an unambiguous city fills the postal code; the department comes from the communes and the
 * region from the department; a missing position is the commune's centre.
 */
export function resolvePlace(raw: RawRecord, communes: CommuneTable): Place {
  const located = locate(raw, communes);
  let latitude = parseCoordinate(raw.latitude, 90);
  let longitude = parseCoordinate(raw.longitude, 180);
  // Null Island (0, 0) is what a failed geocoder writes, not a French listing.
  if (latitude === null || longitude === null || (latitude === 0 && longitude === 0)) {
    latitude = located.centre?.lat ?? null;
    longitude = located.centre?.lon ?? null;
    if (latitude === null || longitude === null) latitude = longitude = null;
  }
  return {
    city: located.city,
    postalCode: located.postalCode,
    department: located.department,
    region: located.region,
    latitude: latitude === null ? null : roundCoordinate(latitude),
    longitude: longitude === null ? null : roundCoordinate(longitude),
  };
}

/** Where a record is, before its own coordinates: the same inputs always give the same answer. */
interface Located {
  city: string | null;
  postalCode: string | null;
  department: string | null;
  region: string | null;
  centre: Commune | null;
}

/**
 * Cities and postal codes repeat across millions of records, and resolving one costs several
 * table look-ups with text folding: answers are memoised per commune table, in a map that is
 * emptied when it reaches LOCATION_CACHE_SIZE entries, so memory stays bounded.
 */
const LOCATION_CACHE_SIZE = 50_000;
const locationCaches = new WeakMap<CommuneTable, Map<string, Located>>();

function locate(raw: RawRecord, communes: CommuneTable): Located {
  let cache = locationCaches.get(communes);
  if (cache === undefined) {
    cache = new Map();
    locationCaches.set(communes, cache);
  }
  const key = `${raw.city ?? ''}\u0000${raw.postal_code ?? ''}\u0000${raw.department ?? ''}\u0000${raw.region ?? ''}`;
  let located = cache.get(key);
  if (located === undefined) {
    located = locateUncached(raw, communes);
    if (cache.size >= LOCATION_CACHE_SIZE) cache.clear();
    cache.set(key, located);
  }
  return located;
}

function locateUncached(raw: RawRecord, communes: CommuneTable): Located {
  const fullCityText = textOf(raw.city);
  const cityText = fullCityText !== null && fullCityText.length > MAX_LABEL_LENGTH ? fullCityText.slice(0, MAX_LABEL_LENGTH) : fullCityText;
  let postalCode = postalCodeOf(raw.postal_code);
  let departmentHint = departmentCodeOf(raw.department);
  let candidates: string[] = [];

  if (cityText !== null) {
    // "Paris 8 (75008)", "- Paris 8 - Paris (75)", "75008 Paris", "Lyon, Rhône".
    let rest = cityText;
    if (rest.includes('(')) {
      rest = rest.replace(PARENTHESES, (_all, inside: string) => {
        const code = inside.trim();
        if (POSTAL_CODE_IN_TEXT.test(code) && code.length === 5) postalCode ??= code;
        else if (DEPARTMENT_CODE.test(code)) departmentHint ??= departmentCodeOf(code);
        return ' ';
      });
    }
    // "4 Square Auguste Renoir, 75014 Paris, France": the part holding the postal code names the
    // city, so it is tried first; street addresses and the country are only tried last or dropped.
    const streets: string[] = [];
    for (const part of rest.split(CITY_PARTS)) {
      let name = part;
      const codeInText = POSTAL_CODE_IN_TEXT.exec(name);
      if (codeInText) {
        postalCode ??= codeInText[1];
        name = name.replace(codeInText[1], ' ');
      }
      name = name.replace(CITY_TRIM, '');
      if (name === '' || COUNTRY.test(name)) continue;
      if (codeInText) candidates.unshift(name);
      else if (STREET.test(name)) streets.push(name);
      else candidates.push(name);
    }
    candidates.push(...streets);
    // "Paris 8e" names an arrondissement: its postal code, and the commune "Paris".
    candidates = candidates.map((name) => {
      const arrondissement = ARRONDISSEMENT.exec(name);
      if (!arrondissement) return name;
      const { prefix, count } = ARRONDISSEMENT_PREFIX[arrondissement[1].toLowerCase()];
      const number = Number(arrondissement[2]);
      if (number >= 1 && number <= count) postalCode ??= prefix + String(number).padStart(5 - prefix.length, '0');
      return arrondissement[1];
    });
  }

  let commune: Commune | null = null;
  let sameDepartment: string | null = null;
  /** Centre of a commune known by name only, when all its postal codes share it (Nice, Toulouse). */
  let sharedCentre: Commune | null = null;
  let officialName: string | null = null;
  const postalCommunes = postalCode === null ? [] : communes.byPostalCode(postalCode);

  if (postalCommunes.length > 0) {
    commune = communeOfPostalCode(postalCommunes, candidates, communes);
    if (commune === null) sameDepartment = commonDepartment(postalCommunes);
  } else {
    for (const name of candidates) {
      let matches = communes.byName(name);
      if (matches.length === 0) continue;
      if (departmentHint !== null && matches.length > 1) {
        const inDepartment = matches.filter((c) => c.department === departmentHint);
        if (inDepartment.length > 0) matches = inDepartment;
      }
      const first = matches[0];
      officialName = first.name;
      if (matches.every((c) => c.postalCode === first.postalCode && c.insee === first.insee)) {
        commune = first;
        // A postal code unknown to the table (a typo, a CEDEX) gives way to the commune's.
        postalCode = commune.postalCode;
      } else {
        sameDepartment = commonDepartment(matches);
        // Paris, Lyon and Marseille rows carry their arrondissement's centre: no single centre.
        if (matches.every((c) => c.insee === first.insee && c.lat === first.lat && c.lon === first.lon)) sharedCentre = first;
      }
      break;
    }
  }

  let department = commune?.department ?? sameDepartment;
  if (department === null && postalCode !== null) department = departmentOfPostalCode(postalCode, communes);
  if (department === null && departmentHint !== null && communes.departmentName(departmentHint) !== undefined) department = departmentHint;
  const region = (department === null ? undefined : communes.regionOfDepartment(department)) ?? textOf(raw.region);

  return {
    city: commune?.name ?? officialName ?? candidates[0] ?? null,
    postalCode,
    department,
    region,
    centre: commune ?? sharedCentre,
  };
}

/** The commune of a known postal code that the city text names, or the postal code's only commune. */
function communeOfPostalCode(postalCommunes: readonly Commune[], candidates: string[], communes: CommuneTable): Commune | null {
  for (const name of candidates) {
    const byName = communes.byName(name);
    for (const commune of byName) if (commune.postalCode === postalCommunes[0].postalCode) return commune;
  }
  // "Aix-en-Provence Centre", "Hellemmes-Lille": the commune name with a district around it;
  // "Montignac" for Montignac-Lascaux: a short form of the name. Only one commune may fit.
  for (const name of candidates) {
    const words = ` ${foldText(name)} `;
    let found: Commune | null = null;
    let count = 0;
    for (const commune of postalCommunes) {
      const communeWords = ` ${foldedName(commune)} `;
      if (words.includes(communeWords) || communeWords.startsWith(words)) {
        found = commune;
        count++;
      }
    }
    if (count === 1) return found;
  }
  // No city, or a locality the table does not know (a hamlet, a district): the only commune.
  return postalCommunes.length === 1 ? postalCommunes[0] : null;
}

function commonDepartment(list: readonly Commune[]): string | null {
  const department = list[0].department;
  return list.every((c) => c.department === department) ? department : null;
}

/** `75008`, `"75 008"`, `6000` (a number that lost its leading zero), `"75008 Paris"`. */
function postalCodeOf(value: unknown): string | null {
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 1000 || value > 99999) return null;
    return String(value).padStart(5, '0');
  }
  const text = textOf(value);
  if (text === null) return null;
  if (FOUR_DIGITS.test(text)) return `0${text}`;
  const spaced = POSTAL_CODE_SPACED.exec(text);
  if (spaced) return spaced[1] + spaced[2];
  const match = POSTAL_CODE_IN_TEXT.exec(text);
  return match ? match[1] : null;
}

/** `75`, `2A`, `971`, `1` -> `01`, `"Paris (75)"`. Names are not resolved (the table has no index). */
function departmentCodeOf(value: unknown): string | null {
  const text = textOf(value);
  if (text === null) return null;
  const inParentheses = DEPARTMENT_IN_PARENTHESES.exec(text);
  const code = (inParentheses ? inParentheses[1] : text).toUpperCase();
  if (ONE_DIGIT.test(code)) return `0${code}`;
  return DEPARTMENT_CODE.test(code) ? code : null;
}

/** Department of a postal code the table does not list (CEDEX): the first 2 digits, 3 overseas. */
function departmentOfPostalCode(postalCode: string, communes: CommuneTable): string | null {
  const candidate = postalCode.startsWith('97') || postalCode.startsWith('98') ? postalCode.slice(0, 3) : postalCode.slice(0, 2);
  return communes.departmentName(candidate) !== undefined ? candidate : null;
}
