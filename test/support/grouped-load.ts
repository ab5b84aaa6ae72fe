/**
 * Raw records loaded by the real indexer with the deduplication stage, each load a second after the
 * previous one on the loads' own clock: the indexer-driven HTTP tests' way of writing to the service.
 */
import { runLoad, type LoadReport } from '../../indexer/load.js';
import { DedupGrouping } from '../../indexer/dedup/stage.js';
import type { ListingIndex } from '../../src/core/ports/listing-index.js';
import { loadSites } from '../../src/core/model/sites.js';
import { loadCommunes } from '../../src/core/refdata/communes.js';
import { writeNdjson } from './raw.js';

export function groupedLoader(store: () => ListingIndex, startAt: number): (records: Record<string, unknown>[]) => Promise<LoadReport> {
  const sites = loadSites();
  const communes = loadCommunes();
  let clock = startAt;
  return (records) => {
    clock += 1000;
    return runLoad({ files: [writeNdjson(records)], store: store(), sites, communes, now: () => clock, grouping: new DedupGrouping({ sites }) });
  };
}
