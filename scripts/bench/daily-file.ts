/**
 * The next day's collection of the benchmark catalogue: a file where a tenth of the catalogue's
 * records changed, as a nightly crawl brings them, loaded into the catalogue built from the sample
 * (indexer-bench.ts, "the daily load"). Derived from the sample, record by record: every tenth
 * record comes back a day later, in turn
 * - with a lower price (4 in 10),
 * - sold or withdrawn (2 in 10),
 * - as a new listing of the same site (a new reference: the agency published it again; 3 in 10),
 * - as a new copy on another site (a new cross-site duplicate; 1 in 10).
 * The other records are not in the file: a collector sends what changed or appeared.
 */
import { createReadStream, createWriteStream, existsSync, renameSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { loadSites } from '../../src/core/model/sites.js';

export const DAILY_FILE = 'daily.ndjson.gz';
/** Every DAILY_EVERY-th record of the sample changes. */
export const DAILY_EVERY = 10;
const DAY_MS = 86_400_000;

type RawRecord = Record<string, unknown> & { source: string; reference: string | number; url: string; collected_at: string; price?: unknown };

/** The change the n-th changed record undergoes (n counts changed records only). */
export function dailyChange(record: RawRecord, n: number, sources: readonly string[]): RawRecord {
  const collectedAt = new Date(Date.parse(record.collected_at) + DAY_MS).toISOString();
  const next = { ...record, collected_at: collectedAt };
  const kind = n % 10;
  if (kind < 4) {
    const price = priceOf(record.price);
    return price === null ? { ...next, status: 'vendue' } : { ...next, price: Math.round((price * 0.95) / 1000) * 1000 };
  }
  if (kind < 6) return { ...next, status: kind === 4 ? 'vendue' : 'retirée' };
  if (kind < 9) return { ...next, reference: `${record.reference}-R${n}`, url: `${record.url}?republie=${n}` };
  const other = sources[(sources.indexOf(record.source) + 1) % sources.length];
  return { ...next, source: other, reference: `D${n}`, url: `https://${other}.example/annonce/D${n}` };
}

/** A price as the sample writes it: a number, or a text such as "140 000 €". */
function priceOf(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return null;
  const digits = value.replace(/[^\d]/g, '');
  return digits ? Number(digits) : null;
}

/** The daily file beside the sample (made once, then kept with it). */
export async function ensureDailyFile(sampleFile: string): Promise<string> {
  const file = path.join(path.dirname(sampleFile), DAILY_FILE);
  if (existsSync(file)) return file;
  const sources = loadSites()
    .sites.map((s) => s.source)
    .filter((s) => s !== 'interne');
  const partial = `${file}.partial`;
  async function* changed(): AsyncGenerator<string> {
    let i = 0;
    let n = 0;
    for await (const line of createInterface({ input: createReadStream(sampleFile).pipe(createGunzip()), crlfDelay: Infinity })) {
      if (!line.trim() || i++ % DAILY_EVERY !== 0) continue;
      yield `${JSON.stringify(dailyChange(JSON.parse(line) as RawRecord, n++, sources))}\n`;
    }
  }
  await pipeline(Readable.from(changed()), createGzip(), createWriteStream(partial));
  renameSync(partial, file);
  return file;
}
