/**
 * npm run dedup-eval -- <records.ndjson[.gz]> <labels.ndjson[.gz]> [--data-dir DIR] [--keep DIR] [--compare] [--threshold T] [--cache LISTINGS] [--explain]
 * npm run dedup-eval -- --realdata [DIR]
 *
 * Loads the records with the real indexer (runLoad + DedupGrouping) into a temporary SQLite store,
 * or reads the store already in --data-dir, and prints pairwise precision, recall and F1 of the
 * grouping against the labels. --keep DIR loads into DIR and keeps it. --compare first loads the same
 * records with SingletonGrouping into another temporary store and reports both load times, the
 * measure of what grouping adds per record (wall and CPU time). --explain counts the missed and the
 * wrong pairs by reason (indexer/dedup/explain.ts). --cache sets the stage's block cache (listings).
 *
 * --realdata loads the real scraped listings where they lie (DIR, else REALDATA_DIR, else
 * ../shared/realdata beside the repository) and reports rejects, nulled values, redaction and, on
 * the Levallois crawl, the grouping's precision and recall on labelled pairs (realdata-eval.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadSites } from '../../src/core/model/sites.js';
import { loadCommunes } from '../../src/core/refdata/communes.js';
import { openFolderListingStore } from '../../src/open-listing-store.js';
import { SingletonGrouping, type GroupingStage, type GroupWritePage } from '../grouping.js';
import type { StoredListing } from '../../src/core/model/stored.js';
import type { ListingIndex } from '../../src/core/ports/listing-index.js';
import type { MergeClock } from '../merge.js';
import { runLoad, type LoadReport } from '../load.js';
import { evaluateStore, readLabels } from './evaluate.js';
import type { PairScores } from './metrics.js';
import { explainPairs } from './explain.js';
import { DedupGrouping } from './stage.js';
import { realdataDir } from './realdata.js';
import { realdataReport } from './realdata-eval.js';

const USAGE =
  'usage: npm run dedup-eval -- <records.ndjson[.gz]> <labels.ndjson[.gz]> [--data-dir DIR] [--keep DIR] [--compare] [--threshold T] [--cache LISTINGS] [--explain]\n       npm run dedup-eval -- --realdata [DIR]';

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      keep: { type: 'string' },
      compare: { type: 'boolean' },
      threshold: { type: 'string' },
      explain: { type: 'boolean' },
      cache: { type: 'string' },
      realdata: { type: 'boolean' },
    },
  });
  if (values.realdata) return realdata(positionals[0] ?? realdataDir(process.env));
  const [recordsFile, labelsFile] = positionals;
  if (!labelsFile) return usage('records and labels files are required');
  const threshold = values.threshold === undefined ? undefined : Number(values.threshold);
  if (threshold !== undefined && !Number.isFinite(threshold)) return usage('--threshold must be a number');
  const cacheListings = values.cache === undefined ? undefined : Number(values.cache);
  if (cacheListings !== undefined && !Number.isInteger(cacheListings)) return usage('--cache must be a number of listings');
  const sites = loadSites();
  const output: Record<string, unknown> = {};

  if (values.compare && !values['data-dir']) {
    const singleton = await loadInto(recordsFile, null, new SingletonGrouping());
    output.load_singleton = timing(singleton.report);
    await singleton.dispose();
  }

  let store: ListingIndex;
  let dispose = async () => {
    await store.close();
  };
  if (values['data-dir']) {
    const file = path.join(values['data-dir'], 'listings.sqlite');
    if (!existsSync(file)) return usage(`no store in ${values['data-dir']} (listings.sqlite missing)`);
    store = openFolderListingStore(values['data-dir']);
  } else {
    const stage = new TimedGrouping(new DedupGrouping({ sites, threshold, cacheListings }));
    const loaded = await loadInto(recordsFile, values.keep ?? null, stage);
    output.load_dedup = { ...timing(loaded.report), groups_formed: loaded.report.groups_formed, regrouped_at_end: loaded.report.regrouped_at_end };
    // The stage's own time, against the rest of the same load: a ratio the noise of a shared machine
    // (which moves whole runs up and down) barely touches.
    const rest = loaded.report.cpu_seconds - stage.cpuSeconds || 1;
    output.grouping_stage = {
      cpu_seconds: round2(stage.cpuSeconds),
      wall_seconds: round2(stage.wallSeconds),
      extra_rows_written: stage.extraRows,
      share_of_the_rest_of_the_load_cpu: `${((stage.cpuSeconds / rest) * 100).toFixed(1)} %`,
    };
    if (output.load_singleton) {
      const base = (output.load_singleton as { ms_per_record: number }).ms_per_record;
      const dedup = (output.load_dedup as { ms_per_record: number }).ms_per_record;
      output.grouping_overhead = `${(((dedup - base) / base) * 100).toFixed(1)} %`;
      const cpu = (name: string) => (output[name] as { cpu_seconds: number }).cpu_seconds;
      output.grouping_overhead_cpu = `${(((cpu('load_dedup') - cpu('load_singleton')) / cpu('load_singleton')) * 100).toFixed(1)} %`;
    }
    store = loaded.store;
    dispose = loaded.dispose;
  }
  try {
    const labels = await readLabels(labelsFile);
    const evaluation = await evaluateStore(store, labels);
    output.quality = evaluation;
    if (values.explain) output.explain = await explainPairs(store, labels.property);
    console.log(JSON.stringify(output, null, 2));
    console.log(scoreLine('active listings', evaluation.active));
    for (const [shape, scores] of Object.entries(evaluation.by_shape))
      console.log(scoreLine(`  ${shape} pairs (${scores.truePairs} true, ${scores.predictedPairs} predicted)`, scores));
    const r = evaluation.relistings;
    console.log(`relistings: ${r.planted} planted, ${r.found} found (${r.found_exact} exact); precision ${r.precision}, recall ${r.recall}`);
    return 0;
  } finally {
    await dispose();
  }
}

async function realdata(dir: string): Promise<number> {
  if (!existsSync(dir)) return usage(`no real data in ${dir} (set REALDATA_DIR or pass the folder)`);
  const report = await realdataReport(dir, loadSites());
  console.log(JSON.stringify(report, null, 2));
  for (const folder of report.folders) {
    console.log(
      `${folder.folder}: ${folder.records} records, ${folder.rejected} rejected; descriptions with contact data ${folder.contact_descriptions_before} before, ${folder.contact_descriptions_after} after redaction`,
    );
  }
  for (const [name, grouping] of [
    ['levallois', report.levallois],
    ['levallois cut to sparse records', report.levallois_sparse],
  ] as const) {
    if (grouping === null) continue;
    const { labelled_pairs: labelled, unambiguous_pairs: unambiguous } = grouping;
    console.log(
      `${name}: labelled pairs (${labelled.same} same, ${labelled.different} different, ${labelled.unsure} unsure left out): precision ${labelled.precision.toFixed(4)}  recall ${labelled.recall.toFixed(4)}`,
    );
    console.log(
      `${name}: unambiguous pairs (same price and rooms, surfaces within 0.6 m², one candidate each side): ${unambiguous.grouped} of ${unambiguous.pairs} grouped, recall ${unambiguous.recall.toFixed(4)}`,
    );
  }
  return 0;
}

async function loadInto(recordsFile: string, keepDir: string | null, grouping: GroupingStage) {
  const dir = keepDir ?? mkdtempSync(path.join(tmpdir(), 'dedup-eval-'));
  mkdirSync(dir, { recursive: true });
  const store = openFolderListingStore(dir);
  const cpuBefore = process.cpuUsage();
  const report = await runLoad({ files: [recordsFile], store, sites: loadSites(), communes: loadCommunes(), grouping });
  const cpu = process.cpuUsage(cpuBefore);
  return {
    store,
    report: { ...report, cpu_seconds: Math.round((cpu.user + cpu.system) / 1e4) / 100 },
    dispose: async () => {
      await store.close();
      if (!keepDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

function timing(report: LoadReport & { cpu_seconds: number }) {
  return {
    records: report.read,
    seconds: report.seconds,
    cpu_seconds: report.cpu_seconds,
    records_per_second: report.records_per_second,
    ms_per_record: Math.round((report.seconds * 1000 * 1000) / Math.max(1, report.read)) / 1000,
  };
}

/**
 * Times the stage's apply() and the pages of its finish() (wall and CPU of this thread; the load's
 * writes of what they return are not in it) and counts the rows they add to the batches: a first
 * build groups at its end (stage.ts), so its grouping is in finish().
 */
class TimedGrouping implements GroupingStage {
  cpuSeconds = 0;
  wallSeconds = 0;
  extraRows = 0;
  constructor(private readonly inner: GroupingStage) {}
  get groupsFormed(): number {
    return this.inner.groupsFormed;
  }
  get groupedInWorker(): boolean | undefined {
    return this.inner.groupedInWorker;
  }
  async begin(store: ListingIndex): Promise<void> {
    await this.timed(async () => this.inner.begin?.(store));
  }
  async apply(...args: Parameters<GroupingStage['apply']>): Promise<StoredListing[]> {
    const out = await this.timed(() => this.inner.apply(...args));
    this.extraRows += out.length - args[0].length;
    return out;
  }
  async *finish(store: ListingIndex, clock: () => MergeClock): AsyncIterable<GroupWritePage> {
    if (!this.inner.finish) return;
    const pages = this.inner.finish(store, clock)[Symbol.asyncIterator]();
    for (;;) {
      const next = await this.timed(() => pages.next());
      if (next.done) return;
      this.extraRows += next.value.count;
      yield next.value;
    }
  }
  private async timed<T>(work: () => Promise<T>): Promise<T> {
    const cpu = process.cpuUsage();
    const wall = process.hrtime.bigint();
    try {
      return await work();
    } finally {
      const used = process.cpuUsage(cpu);
      this.cpuSeconds += (used.user + used.system) / 1e6;
      this.wallSeconds += Number(process.hrtime.bigint() - wall) / 1e9;
    }
  }
}

function scoreLine(what: string, { precision, recall, f1 }: PairScores): string {
  return `${what}: precision ${precision.toFixed(4)}  recall ${recall.toFixed(4)}  F1 ${f1.toFixed(4)}`;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function usage(problem: string): number {
  console.error(`${problem}\n${USAGE}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
