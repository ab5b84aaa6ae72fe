/**
 * Where sample properties are: real communes (src/core/refdata), drawn in proportion to their
 * population, so Paris, Lyon and Marseille are common while rural communes still appear; plus the
 * ways collectors write a commune's name.
 */
import { loadCommunes, type Commune } from '../../src/core/refdata/communes.js';
import type { Rng } from './prng.js';

export interface PlacePicker {
  pick(rng: Rng): Commune;
}

/**
 * The reference table has one row per (postal code, commune) with the commune's whole population on
 * each row, so a commune's population is shared out between its postal codes (Paris has 21 rows).
 */
export function createPlacePicker(): PlacePicker {
  const rows = loadCommunes().all;
  const rowsPerCommune = new Map<string, number>();
  for (const row of rows) rowsPerCommune.set(row.insee, (rowsPerCommune.get(row.insee) ?? 0) + 1);
  const cumulative = new Float64Array(rows.length);
  let total = 0;
  rows.forEach((row, i) => {
    total += Math.max(row.population, 50) / (rowsPerCommune.get(row.insee) ?? 1);
    cumulative[i] = total;
  });
  return {
    pick(rng) {
      const draw = rng.next() * total;
      let lo = 0;
      let hi = rows.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (cumulative[mid] > draw) hi = mid;
        else lo = mid + 1;
      }
      return rows[lo];
    },
  };
}

const METRES_PER_DEGREE = 111_320;

/** A point uniformly spread in a disc of `radiusMetres` around (lat, lon). */
export function jitter(rng: Rng, lat: number, lon: number, radiusMetres: number): { lat: number; lon: number } {
  const distance = radiusMetres * Math.sqrt(rng.next());
  const angle = rng.next() * 2 * Math.PI;
  const dLat = (distance * Math.cos(angle)) / METRES_PER_DEGREE;
  const dLon = (distance * Math.sin(angle)) / (METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180));
  return { lat: lat + dLat, lon: lon + dLon };
}

/** Arrondissement number of a Paris, Lyon or Marseille postal code, else null. */
export function arrondissement(commune: Commune): number | null {
  const cp = commune.postalCode;
  if (commune.name === 'Paris') return cp === '75116' ? 16 : Number(cp.slice(3));
  if (commune.name === 'Lyon' || commune.name === 'Marseille') return Number(cp.slice(3));
  return null;
}

export type CityStyle = 'plain' | 'upper' | 'noAccents' | 'abbreviated' | 'arrondissement';

/** The commune's name as a site writes it ("Paris 8e", "ST ETIENNE", "Saint-Etienne"...). */
export function cityLabel(commune: Commune, style: CityStyle, rng: Rng): string {
  const name = commune.name;
  switch (style) {
    case 'plain':
      return name;
    case 'upper':
      return stripAccents(name).toUpperCase();
    case 'noAccents':
      return stripAccents(name);
    case 'abbreviated':
      return abbreviateSaint(stripAccents(name).toUpperCase().replace(/-/g, ' '));
    case 'arrondissement': {
      const number = arrondissement(commune);
      if (number === null) return name;
      return rng.pick([
        `${name} ${number}e`,
        `${name} ${number}${number === 1 ? 'er' : 'ème'}`,
        `${name.toUpperCase()} ${String(number).padStart(2, '0')}`,
        `${name} ${number}e Arrondissement`,
      ]);
    }
  }
}

const accentFree = new Map<string, string>();

/** "Saint-Étienne" -> "Saint-Etienne"; memoised (a bounded cache: names repeat a lot). */
export function stripAccents(text: string): string {
  let plain = accentFree.get(text);
  if (plain === undefined) {
    plain = /^[\x20-\x7e]*$/.test(text) ? text : text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    if (accentFree.size >= 100_000) accentFree.clear();
    accentFree.set(text, plain);
  }
  return plain;
}

function abbreviateSaint(upper: string): string {
  return upper.replace(/\bSAINTE\b/g, 'STE').replace(/\bSAINT\b/g, 'ST');
}

/** "Lyon 3e", "Paris 16e", or the plain name: how templates mention the place in prose. */
export function placeInProse(commune: Commune): string {
  const number = arrondissement(commune);
  return number === null ? commune.name : `${commune.name} ${number}${number === 1 ? 'er' : 'e'}`;
}
