/**
 * One indexer load with a progress bar on a terminal and the load's metrics: what
 * `npm run indexer -- load` and the API's first start on an empty store both run.
 */
import cliProgress from 'cli-progress';
import { loadSites } from '../src/core/model/sites.js';
import { loadCommunes } from '../src/core/refdata/communes.js';
import type { ListingIndex } from '../src/core/ports/listing-index.js';
import { runLoad, type LoadReport } from './load.js';
import { DedupGrouping } from './dedup/stage.js';
import type { IndexerMetrics } from './metrics.js';
import { EXIT } from './exit-codes.js';
import type { SnapshotOptions } from './snapshot.js';

export async function loadWithProgress(
  files: string[],
  store: ListingIndex,
  rejectsFile: string | null,
  options: { groupInWorker?: boolean; metrics?: IndexerMetrics; snapshot?: SnapshotOptions } = {},
): Promise<LoadReport> {
  const bar = process.stderr.isTTY
    ? new cliProgress.SingleBar(
        {
          format: 'indexing {value} records | {written} written | {unchanged} unchanged | {rejected} rejected | {rate}/s | {regrouped} regrouped at the end',
          stream: process.stderr,
        },
        cliProgress.Presets.shades_classic,
      )
    : null;
  bar?.start(0, 0, { written: 0, unchanged: 0, rejected: 0, rate: 0, regrouped: 0 });
  try {
    const sites = loadSites();
    const report = await runLoad({
      files,
      store,
      rejectsFile,
      sites,
      communes: loadCommunes(),
      grouping: new DedupGrouping({ sites, groupInWorker: options.groupInWorker }),
      parseInWorker: true,
      snapshot: options.snapshot,
      onProgress: (r) => {
        bar?.update(r.read, { written: r.written, unchanged: r.unchanged, rejected: r.rejected, rate: r.records_per_second, regrouped: r.regrouped_at_end });
        options.metrics?.observe(r);
      },
    });
    options.metrics?.observe(report);
    return report;
  } finally {
    bar?.stop();
  }
}

/** 0, or EXIT.damagedInput: everything readable was loaded and grouped, but an input ended badly. */
export function exitCodeOf(report: LoadReport): number {
  return report.damaged_inputs.length > 0 ? EXIT.damagedInput : EXIT.ok;
}
