/**
 * Index maintenance from the command line (the cluster of ES_URL, the alias of ES_INDEX_ALIAS):
 *   npx tsx src/adapters/elasticsearch/cli.ts status    alias -> index, mapping versions, document count, refresh
 *                                                      intervals, the writer lock if one is held
 *   npx tsx src/adapters/elasticsearch/cli.ts ensure    create <alias>-v1 with mappings/annonces.json if the alias is missing
 *   npx tsx src/adapters/elasticsearch/cli.ts reindex   build the next generation from the live one while loads go on,
 *                                                      then catch up and swap the alias under the writer lock
 */
import { loadConfig } from '../../config/config.js';
import { BATCH_CLIENT_OPTIONS, createElasticsearchClient } from './client.js';
import { ensureIndex, indicesOf } from './aliases.js';
import { reindexUnderLock } from './locked-reindex.js';
import { readLock } from './writer-lock.js';
import { loadIndexDefinition, withReplicas } from './index-definition.js';

async function main(argv: string[]): Promise<number> {
  const config = loadConfig(process.env).elasticsearch;
  if (!config) {
    console.error('ES_URL is not set: the service runs on the embedded SQLite store, there is no index to manage.');
    return 2;
  }
  const client = createElasticsearchClient(config, BATCH_CLIENT_OPTIONS);
  try {
    switch (argv[0]) {
      case 'ensure': {
        const definition = withReplicas(loadIndexDefinition(), config.replicas);
        console.log(JSON.stringify({ alias: config.alias, index: await ensureIndex(client, config.alias, definition) }));
        return 0;
      }
      case 'status': {
        const indices = await indicesOf(client, config.alias);
        const mappings = indices.length ? await client.indices.getMapping({ index: indices }) : {};
        const live = Object.fromEntries(
          Object.entries(mappings).map(([index, m]) => [index, (m.mappings._meta as { mapping_version?: number } | undefined)?.mapping_version ?? null]),
        );
        const count = indices.length ? (await client.count({ index: config.alias })).count : 0;
        // What the alerts of docs/elasticsearch.md watch: a lock held long, refreshes left off.
        const settings = indices.length ? await client.indices.getSettings({ index: indices, name: 'index.refresh_interval' }) : {};
        const refresh = Object.fromEntries(Object.entries(settings).map(([index, s]) => [index, s.settings?.index?.refresh_interval ?? null]));
        const lock = await readLock(client, config.alias);
        console.log(
          JSON.stringify({
            alias: config.alias,
            indices: live,
            mapping_file_version: loadIndexDefinition().mappings._meta.mapping_version,
            documents: count,
            refresh_interval: refresh,
            writer_lock: lock && { holder: lock.document.holder, changes_from: lock.document.changes_from, lease_ms: lock.document.lease_ms ?? null },
          }),
        );
        return 0;
      }
      case 'reindex': {
        const report = await reindexUnderLock(client, {
          alias: config.alias,
          writerLeaseMs: config.writerLeaseMs,
          replicas: config.replicas,
          onProgress: (n) => process.stderr.write(`\rcopied ${n}`),
          onWaitForLock: (busy) => process.stderr.write(`\ncopied; waiting for the writer lock to catch up and swap: ${busy.message}\n`),
        });
        process.stderr.write('\n');
        console.log(JSON.stringify(report));
        return 0;
      }
      default:
        console.error('usage: npx tsx src/adapters/elasticsearch/cli.ts status|ensure|reindex');
        return 2;
    }
  } finally {
    await client.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      if ((error as Error).name === 'WriterBusyError') {
        console.error((error as Error).message);
        process.exitCode = 3;
        return;
      }
      console.error(error);
      process.exitCode = 1;
    },
  );
}
