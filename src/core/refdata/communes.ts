/**
 * French communes with their postal codes, department, region, centre and PTZ zone.
 * Source: src/core/refdata/data/postal_codes.csv, copied from the project's reference data (INSEE COG and
 * La Poste postal code base through @etalab/decoupage-administratif 6.0.0, Licence Ouverte; PTZ
 * zoning of the order of 5 September 2025; see src/core/refdata/README.md). Loaded once, synchronously,
 * and cached: one small table, read at start before any request or record needs it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { foldText } from './text.js';

export type PtzZone = 'Abis' | 'A' | 'B1' | 'B2' | 'C';

export interface Commune {
  insee: string;
  name: string;
  postalCode: string;
  department: string;
  departmentName: string;
  region: string;
  ptzZone: PtzZone;
  population: number;
  lat: number | null;
  lon: number | null;
}

export interface CommuneTable {
  readonly all: readonly Commune[];
  byPostalCode(postalCode: string): readonly Commune[];
  /** Communes whose folded name equals the folded `name` (several departments may share a name). */
  byName(name: string): readonly Commune[];
  departmentName(code: string): string | undefined;
  /** Region name of a department code. */
  regionOfDepartment(code: string): string | undefined;
}

const DATA_FILE = fileURLToPath(new URL('./data/postal_codes.csv', import.meta.url));

let cached: CommuneTable | undefined;

export function loadCommunes(): CommuneTable {
  if (cached) return cached;
  const lines = readFileSync(DATA_FILE, 'utf8').split('\n');
  const all: Commune[] = [];
  const byPostalCode = new Map<string, Commune[]>();
  const byName = new Map<string, Commune[]>();
  const departmentNames = new Map<string, string>();
  const departmentRegions = new Map<string, string>();
  // header: postal_code,insee,commune,department,department_name,region,region_name,zone,population,lat,lon,coord_source
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    const f = line.split(',');
    const commune: Commune = {
      postalCode: f[0],
      insee: f[1],
      name: f[2],
      department: f[3],
      departmentName: f[4],
      region: f[6],
      ptzZone: f[7] as PtzZone,
      population: Number(f[8]) || 0,
      lat: f[9] ? Number(f[9]) : null,
      lon: f[10] ? Number(f[10]) : null,
    };
    all.push(commune);
    push(byPostalCode, commune.postalCode, commune);
    push(byName, foldText(commune.name), commune);
    departmentNames.set(commune.department, commune.departmentName);
    departmentRegions.set(commune.department, commune.region);
  }
  cached = {
    all,
    byPostalCode: (cp) => byPostalCode.get(cp) ?? [],
    byName: (name) => byName.get(foldText(name)) ?? [],
    departmentName: (code) => departmentNames.get(code),
    regionOfDepartment: (code) => departmentRegions.get(code),
  };
  return cached;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
