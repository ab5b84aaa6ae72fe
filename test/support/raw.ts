/** Raw collector records for indexer-driven tests, and a helper to write them as NDJSON files. */
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const SITES = ['seloger', 'leboncoin', 'bienici', 'pap'];
const PLACES = [
  ['Paris', '75011'],
  ['Lyon', '69003'],
  ['Nantes', '44000'],
  ['Guéret', '23000'],
];

export function rawRecord(i: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const [city, postal_code] = PLACES[i % PLACES.length];
  const source = SITES[i % SITES.length];
  return {
    source,
    reference: `R${i}`,
    url: `https://www.${source}.example/annonce/R${i}`,
    collected_at: '2026-11-01T10:00:00Z',
    title: `Appartement ${2 + (i % 4)} pièces lumineux`,
    description: `Bel appartement numéro ${i}, proche commerces.`,
    type: 'appartement',
    transaction: 'vente',
    price: `${200 + i} 000 €`,
    surface: `${40 + (i % 50)},5 m²`,
    rooms: 2 + (i % 4),
    city,
    postal_code,
    images: [`https://img.example/${i}.jpg`],
    seller_type: 'agence',
    seller_name: 'Agence Test',
    ...overrides,
  };
}

export function writeNdjson(records: unknown[], name = 'records.ndjson', dir = mkdtempSync(path.join(tmpdir(), 'raw-'))): string {
  const file = path.join(dir, name);
  writeFileSync(file, `${records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n')}\n`);
  return file;
}
