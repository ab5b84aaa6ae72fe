/**
 * PTZ zone of a postal code (zoning of the order of 5 September 2025).
 * The zone belongs to the commune; for a postal code whose communes are in different zones we follow
 * the rule of the reference data notes (src/core/refdata/README.md): the zone holding most of the postal
 * code's population (`zone_population_majority`, ties to the more tense zone). Data:
 * src/core/refdata/data/postal_code_zone_summary.csv (6 187 postal codes covering 34 875 communes).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PtzZone } from './communes.js';

export const PTZ_LEGAL_BASIS =
  "Arrêté du 5 septembre 2025 modifiant l'arrêté du 1er août 2014 pris en application de l'article D. 304-1 du code de la construction et de l'habitation";

export interface PtzZoneAnswer {
  zone: PtzZone;
  codePostal: string;
  source: string;
}

export interface PtzLookup {
  zoneOf(postalCode: string): PtzZoneAnswer | null;
  readonly postalCodes: number;
}

const SUMMARY_FILE = fileURLToPath(new URL('./data/postal_code_zone_summary.csv', import.meta.url));

export function loadPtzLookup(file = SUMMARY_FILE): PtzLookup {
  // header: postal_code,n_communes,zones,zone_most_tense,zone_population_majority,population_share_majority,single_zone
  const zones = new Map<string, PtzZone>();
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 1; i < lines.length; i++) {
    const fields = lines[i].split(',');
    if (fields.length < 5) continue;
    zones.set(fields[0], fields[4] as PtzZone);
  }
  return {
    postalCodes: zones.size,
    zoneOf(postalCode) {
      const zone = zones.get(postalCode);
      return zone ? { zone, codePostal: postalCode, source: PTZ_LEGAL_BASIS } : null;
    },
  };
}
