/**
 * Plausible prices for a sample property: a sale price per m² for the place (a few known cities,
 * then a tier per department, adjusted by the size of the commune), from which rents, land,
 * parking spaces and commercial premises are derived. Orders of magnitude of 2025-2026 markets,
 * not an estimate of any real property.
 */
import type { Commune } from '../../src/core/refdata/communes.js';
import { arrondissement } from './places.js';
import type { Rng } from './prng.js';

/** Apartment sale price per m² of known communes (by name; homonyms elsewhere are rare villages). */
const CITY_PRICE_PER_M2: Record<string, number> = {
  Paris: 10_000,
  'Neuilly-sur-Seine': 11_000,
  'Levallois-Perret': 9_500,
  'Boulogne-Billancourt': 8_600,
  'Saint-Mandé': 9_000,
  Vincennes: 8_700,
  Versailles: 7_400,
  'Issy-les-Moulineaux': 8_000,
  Lyon: 5_200,
  Bordeaux: 4_700,
  Nice: 5_300,
  Annecy: 5_600,
  'Aix-en-Provence': 5_200,
  Cannes: 6_200,
  Antibes: 5_400,
  Biarritz: 7_200,
  Arcachon: 7_000,
  'La Rochelle': 4_600,
  'Saint-Malo': 4_400,
  Marseille: 3_600,
  Toulouse: 3_800,
  Nantes: 3_900,
  Rennes: 4_000,
  Montpellier: 3_700,
  Strasbourg: 3_700,
  Lille: 3_600,
  Grenoble: 2_700,
  Toulon: 3_100,
  Dijon: 2_700,
  Angers: 3_000,
  Tours: 2_900,
  Reims: 2_500,
  'Clermont-Ferrand': 2_400,
  Nîmes: 2_400,
  Brest: 2_000,
  'Le Havre': 2_000,
  'Le Mans': 1_900,
  Amiens: 2_300,
  Limoges: 1_600,
  Perpignan: 1_900,
  Metz: 2_200,
  Mulhouse: 1_300,
  'Saint-Étienne': 1_300,
};

/** Paris arrondissements around the Paris average (the 6e, 7e cost far more than the 19e). */
const PARIS_ARRONDISSEMENT_FACTOR = [1, 1.25, 1.1, 1.15, 1.3, 1.25, 1.45, 1.45, 1.25, 1.05, 1.0, 1.0, 0.95, 0.92, 1.0, 1.02, 1.25, 1.05, 0.9, 0.86, 0.87];

/** Department tiers for communes not listed above. */
const DEPARTMENT_PRICE_PER_M2: Record<string, number> = {
  '92': 6_500,
  '94': 4_600,
  '93': 3_700,
  '78': 4_000,
  '91': 3_000,
  '95': 3_000,
  '77': 2_800,
  '06': 4_700,
  '2A': 3_900,
  '2B': 3_200,
  '74': 4_300,
  '73': 3_600,
  '83': 3_900,
  '13': 3_200,
  '84': 2_600,
  '64': 3_400,
  '33': 2_800,
  '17': 3_000,
  '85': 2_600,
  '56': 2_600,
  '44': 2_700,
  '35': 2_300,
  '29': 1_900,
  '22': 1_900,
  '14': 2_300,
  '50': 1_800,
  '76': 1_900,
  '69': 3_000,
  '38': 2_300,
  '01': 2_600,
  '31': 2_400,
  '34': 2_800,
  '30': 2_100,
  '66': 2_100,
  '11': 1_600,
  '67': 2_500,
  '68': 2_000,
  '59': 2_000,
  '62': 1_600,
  '60': 2_000,
  '45': 1_900,
  '37': 2_000,
  '49': 2_000,
  '63': 1_800,
  '21': 2_100,
  '25': 2_000,
  '57': 1_700,
  '54': 1_700,
  '51': 1_800,
  '80': 1_600,
  '86': 1_500,
  '87': 1_400,
  '24': 1_700,
  '46': 1_700,
  '47': 1_600,
  '40': 2_600,
  '65': 1_700,
  '32': 1_600,
  '09': 1_500,
  '12': 1_500,
  '48': 1_400,
  '81': 1_600,
  '82': 1_600,
  '23': 900,
  '58': 1_100,
  '36': 1_100,
  '03': 1_200,
  '52': 1_000,
  '55': 1_100,
  '08': 1_200,
  '70': 1_300,
  '15': 1_300,
  '43': 1_400,
  '19': 1_400,
  '18': 1_300,
  '89': 1_400,
  '61': 1_300,
  '02': 1_300,
  '10': 1_500,
  '71': 1_500,
  '88': 1_300,
  '39': 1_600,
  '90': 1_600,
  '42': 1_500,
  '971': 2_600,
  '972': 2_600,
  '973': 2_200,
  '974': 2_900,
  '976': 1_800,
};

const DEFAULT_DEPARTMENT_PRICE_PER_M2 = 1_800;

/** Apartment sale price per m² for a commune, before the noise of each property. */
export function basePricePerM2(commune: Commune): number {
  const city = CITY_PRICE_PER_M2[commune.name];
  if (city !== undefined && commune.population > 8_000) {
    if (commune.name === 'Paris') return city * PARIS_ARRONDISSEMENT_FACTOR[arrondissement(commune) ?? 0];
    return city;
  }
  const tier = DEPARTMENT_PRICE_PER_M2[commune.department] ?? DEFAULT_DEPARTMENT_PRICE_PER_M2;
  const size = commune.population;
  const factor = size < 1_000 ? 0.7 : size < 5_000 ? 0.82 : size < 20_000 ? 0.95 : size < 100_000 ? 1.05 : 1.15;
  return tier * factor;
}

export type PropertyKind = 'appartement' | 'maison' | 'terrain' | 'parking' | 'local' | 'bureaux' | 'immeuble';

export interface PriceInput {
  kind: PropertyKind;
  transaction: 'vente' | 'location';
  surface: number | null;
  landSurface: number | null;
  pricePerM2: number;
}

/**
 * The property's own price (sale in euros, or monthly rent charges included), with its noise.
 * Rents follow the sale price per m² loosely (about 30 €/m² in Paris, 7-9 € in the country, more for small flats).
 */
export function priceOf(input: PriceInput, rng: Rng): number {
  const noise = 1 + rng.normal() * 0.12;
  const perM2 = input.pricePerM2 * noise;
  const surface = input.surface ?? 0;
  if (input.transaction === 'location') {
    const rentPerM2 = 3.5 + perM2 * 0.0026;
    switch (input.kind) {
      case 'parking':
        return roundTo(40 + perM2 * 0.012, 5);
      case 'local':
      case 'bureaux':
        return roundTo(surface * rentPerM2 * 0.9, 10);
      default: {
        // A fixed part makes small flats dearer per m², as they are (a Paris studio rents 40 €/m²).
        const fixedPart = 80 + perM2 * 0.015;
        return roundTo(surface * rentPerM2 + fixedPart, rng.chance(0.5) ? 10 : 5);
      }
    }
  }
  switch (input.kind) {
    case 'appartement':
      return roundSale(surface * perM2, rng);
    case 'maison':
      return roundSale(surface * perM2 * 0.9 + Math.min(input.landSurface ?? 0, 1_500) * perM2 * 0.012, rng);
    case 'terrain':
      return roundSale(Math.max(8_000, (input.landSurface ?? 500) * perM2 * 0.055), rng);
    case 'parking':
      return roundTo(4_000 + perM2 * 2.3, 500);
    case 'local':
      return roundSale(surface * perM2 * 0.75, rng);
    case 'bureaux':
      return roundSale(surface * perM2 * 0.85, rng);
    case 'immeuble':
      return roundSale(surface * perM2 * 0.7, rng);
  }
}

/** Sale prices end in round thousands, or in the "charm" 9 000 / 500 that agencies like. */
function roundSale(value: number, rng: Rng): number {
  if (value < 100_000) return roundTo(value, rng.chance(0.5) ? 500 : 1_000);
  const thousands = roundTo(value, 1_000);
  if (rng.chance(0.3)) return Math.floor(thousands / 10_000) * 10_000 + 9_000;
  return rng.chance(0.2) ? roundTo(value, 500) : thousands;
}

function roundTo(value: number, step: number): number {
  return Math.max(step, Math.round(value / step) * step);
}
