/**
 * `npm run dedup-eval -- --realdata [DIR]`: the indexer on the real scraped listings where they lie
 * (realdata.ts). Each folder is loaded with the real indexer into a temporary store; the report says
 * how many records were rejected and why, which values were nulled, how many descriptions held
 * contact data before and after redaction, and, on the Levallois crawl, the precision and recall of
 * the grouping on the labelled pairs and the recall on the pairs that need no label.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SiteCatalog } from '../../src/core/model/sites.js';
import { loadCommunes } from '../../src/core/refdata/communes.js';
import { openFolderListingStore } from '../../src/open-listing-store.js';
import type { ListingIndex } from '../../src/core/ports/listing-index.js';
import { runLoad } from '../load.js';
import { evaluateLabelledPairs, evaluateUnambiguousPairs, readLabelledPairs, type PairEvaluation, type UnambiguousPairs } from './evaluate.js';
import { asSparse, LEVALLOIS_FOLDER, LEVALLOIS_PAIRS_FILE, levalloisFile, levalloisRecords, levalloisSites, otherRealRecords } from './realdata.js';
import { scanListings } from './scan.js';
import { levalloisTimeline, relistingsFound, type RelistingsFound } from './realdata-relist.js';
import { DedupGrouping } from './stage.js';

export interface FolderReport {
  folder: string;
  records: number;
  rejected: number;
  /** Rejects by reason, for reading what is left. */
  reasons: Record<string, number>;
  nulled_fields: Record<string, number>;
  /** Descriptions holding something that reads as a phone number or an e-mail address, before and after the indexer. */
  contact_descriptions_before: number;
  contact_descriptions_after: number;
}

export interface GroupingReport {
  labelled_pairs: PairEvaluation;
  unambiguous_pairs: UnambiguousPairs;
  groups_formed: number;
}

export interface RealdataReport {
  folders: FolderReport[];
  levallois: GroupingReport | null;
  /** The same crawl cut to the sparse shapes (realdata.ts asSparse). */
  levallois_sparse: GroupingReport | null;
  /** The crawl replayed in time, withdrawals included: the relistings found (realdata-relist.ts). */
  levallois_relistings: RelistingsFound | null;
}

/**
 * A phone number (ten digits from 0[1-9], or +33, whatever the separators between them) or an
 * e-mail address: wider than the redaction's patterns on purpose, to count what they miss.
 */
const CONTACT = /(?:(?:\+|00)\s?33\s?(?:\(0\))?|\b0)\s?[1-9](?:[\s.\-/\u00a0]{0,4}\d){8}(?!\d)|[\w.+-]+@[\w-]+\.[a-z]{2,}/i;

export async function realdataReport(dir: string, configured: SiteCatalog): Promise<RealdataReport> {
  const report: RealdataReport = { folders: [], levallois: null, levallois_sparse: null, levallois_relistings: null };
  const levallois = levalloisFile(dir);
  const sites = levalloisSites(configured);
  if (levallois !== null) {
    const pairs = await readLabelledPairs(LEVALLOIS_PAIRS_FILE);
    const grouping = async (store: ListingIndex) => ({
      labelled_pairs: await evaluateLabelledPairs(store, pairs),
      unambiguous_pairs: await evaluateUnambiguousPairs(store),
    });
    const records = levalloisRecords(levallois);
    const loaded = await loadFolder(LEVALLOIS_FOLDER, records, sites, grouping);
    report.folders.push(loaded.folder);
    report.levallois = { ...loaded.extra, groups_formed: loaded.groupsFormed };
    const sparse = await loadFolder(`${LEVALLOIS_FOLDER} (sparse)`, records.map(asSparse), sites, grouping);
    report.levallois_sparse = { ...sparse.extra, groups_formed: sparse.groupsFormed };
    report.levallois_relistings = (await loadFolder(`${LEVALLOIS_FOLDER} (in time)`, levalloisTimeline(records), sites, relistingsFound)).extra;
  }
  for (const { folder, records } of otherRealRecords(dir)) report.folders.push((await loadFolder(folder, records, sites, async () => null)).folder);
  return report;
}

async function loadFolder<T>(folder: string, records: Record<string, unknown>[], sites: SiteCatalog, measure: (store: ListingIndex) => Promise<T>) {
  const work = mkdtempSync(path.join(tmpdir(), 'realdata-'));
  try {
    // Written to a temporary file and loaded as an operator would: the rejects file says why.
    const input = path.join(work, 'records.ndjson');
    const rejectsFile = path.join(work, 'rejects.ndjson');
    writeFileSync(input, `${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
    const store = openFolderListingStore(work);
    try {
      const grouping = new DedupGrouping({ sites });
      const loaded = await runLoad({ files: [input], store, sites, communes: loadCommunes(), grouping, rejectsFile });
      const reasons: Record<string, number> = {};
      if (existsSync(rejectsFile)) {
        for (const line of readFileSync(rejectsFile, 'utf8').split('\n')) {
          if (!line) continue;
          const reason = (JSON.parse(line) as { reason: string }).reason.replace(/"[^"]*"/g, '"…"');
          reasons[reason] = (reasons[reason] ?? 0) + 1;
        }
      }
      let after = 0;
      for await (const page of scanListings(store, 'all'))
        for (const listing of page) if (listing.content.description && CONTACT.test(listing.content.description)) after++;
      const before = records.filter((record) => typeof record.description === 'string' && CONTACT.test(record.description)).length;
      return {
        folder: {
          folder,
          records: records.length,
          rejected: loaded.rejected,
          reasons,
          nulled_fields: loaded.nulled_fields,
          contact_descriptions_before: before,
          contact_descriptions_after: after,
        },
        groupsFormed: loaded.groups_formed,
        extra: await measure(store),
      };
    } finally {
      await store.close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
