/**
 * npm run bench -- [--listings N] [--scenario NAME[,NAME...]] [--duration S] [--connections C] ...
 * npm run bench -- --indexer [--records N]
 * ES_URL=http://127.0.0.1:9200 npm run bench -- [--engines sqlite,elasticsearch] ...   (default: both with ES_URL)
 *
 * Benchmarks of issue 7. Modules, one concern each:
 *   catalogue.ts    build and cache the catalogue (sample generator -> indexer CLI -> store file)
 *   es-catalogue.ts the same records loaded into Elasticsearch by the indexer CLI, cached behind a bench- alias
 *   child.ts        child processes and their peak RSS
 *   bench-key.ts    the bench account (admin commands, offer sur_mesure)
 *   server.ts       the real server as a child process, start-up time
 *   fixtures.ts     catalogue facts the requests are drawn from
 *   scenarios.ts    the scenarios and their targets
 *   load.ts         autocannon runner
 *   replication.ts  one client replicating the feed
 *   raw-store.ts    the same query timed on the store in-process
 *   text-plans.ts   full text + filters: both plans and the per-query choice
 *   report.ts       tables
 *   side-by-side.ts the engines' figures side by side
 *   alerts-bench.ts alerts delivered by the notifier (--alerts)
 */
import { parseOptions, USAGE, UsageError } from './options.js';
import { SCENARIOS } from './scenarios.js';
import { runApiBench } from './api-bench.js';
import { runIndexerBench } from './indexer-bench.js';
import { targetText } from './report.js';
import { runAlertsBench } from './alerts-bench.js';

async function main(argv: string[]): Promise<number> {
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(argv);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${(error as Error).message}\n${USAGE}`.trim());
      return 2;
    }
    throw error;
  }
  if (options === 'list') {
    for (const s of SCENARIOS) console.log(`${s.name.padEnd(20)} ${s.title}  [${targetText(s.targets)}]`);
    return 0;
  }
  if (options.alerts !== null) await runAlertsBench(options.alerts, options.changes);
  else if (options.indexer) await runIndexerBench(options);
  else await runApiBench(options);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
