/**
 * The benchmark catalogue in Elasticsearch: the SAME raw sample file the SQLite catalogue is built
 * from (catalogue.ts), loaded by the real indexer CLI as a child process, exactly as an operator runs
 * `ES_URL=... ES_INDEX_ALIAS=... npm run indexer -- load <file>`, behind the alias
 * `bench-<N>-<fingerprint>`. It is cached while the alias exists with the document count the load left
 * (the load's figures are kept in .bench-cache/<N>/es-<alias>.json); the fingerprint changes with the
 * indexer, the Elasticsearch adapter or the mapping, so a change of any of them loads it again.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hashSources, loadWithIndexer, type Catalogue, type LoadFigures, type LoadTarget } from './catalogue.js';
import { REPO_ROOT } from './child.js';
import { formatBytes, integer, log } from './report.js';

/** How the index stood after the load: what the benchmark document prints beside the figures. */
export interface IndexFacts {
  /** Concrete indices behind the alias. */
  indices: string[];
  documents: number;
  /** Store size of every copy (primaries and replicas), and of the primaries alone. */
  storeBytes: number;
  primaryStoreBytes: number;
  primaryShards: number;
  replicas: number;
  /** The cluster: nodes, Elasticsearch version, the JVM heap of its node(s) (max, and used when read). */
  nodes: number;
  version: string;
  heapMaxBytes: number;
  heapUsedBytes: number;
}

export interface EsLoad extends LoadFigures {
  url: string;
  alias: string;
  index: IndexFacts;
}

export interface EsCatalogue {
  url: string;
  alias: string;
  build: EsLoad;
}

/** Hash of what decides what an Elasticsearch catalogue holds: indexer/, src/adapters/elasticsearch/, mappings/annonces.json. */
export function esFingerprint(): string {
  const hash = createHash('sha1');
  hashSources(hash, 'indexer');
  hashSources(hash, 'src/adapters/elasticsearch');
  hash.update(readFileSync(path.join(REPO_ROOT, 'mappings/annonces.json')));
  return hash.digest('hex').slice(0, 10);
}

export function benchAlias(listings: number): string {
  return `bench-${listings}-${esFingerprint()}`;
}

export async function ensureEsCatalogue(catalogue: Catalogue, url: string, options: { rebuild: boolean }): Promise<EsCatalogue> {
  const alias = benchAlias(catalogue.listings);
  const figuresFile = path.join(catalogue.dir, `es-${alias}.json`);
  if (!options.rebuild && existsSync(figuresFile)) {
    const build = JSON.parse(readFileSync(figuresFile, 'utf8')) as EsLoad;
    const documents = await countOf(url, alias);
    if (build.url === url && documents === build.index.documents) {
      log(
        `Elasticsearch catalogue of ${catalogue.listings} listings: cached behind ${alias} on ${url} (loaded ${build.builtAt}, ${integer(documents)} documents)`,
      );
      return { url, alias, build: { ...build, index: await indexFacts(url, alias) } };
    }
    log(
      `Elasticsearch catalogue ${alias} on ${url}: ${documents === null ? 'no alias' : `${integer(documents)} documents, ${integer(build.index.documents)} expected`}; loading it again`,
    );
  }
  rmSync(figuresFile, { force: true });
  log(`loading ${path.relative(REPO_ROOT, catalogue.sampleFile)} into Elasticsearch (ES_URL=${url} ES_INDEX_ALIAS=${alias} npm run indexer -- load)`);
  const build = await loadIntoElasticsearch(catalogue.sampleFile, url, alias, path.join(catalogue.dir, 'es-run'));
  writeFileSync(figuresFile, JSON.stringify(build, null, 2));
  return { url, alias, build };
}

/**
 * One load of the indexer CLI into a fresh alias (its indices and writer lock deleted first), then
 * how the index stands once the load is over (refreshed by the indexer at its end).
 */
export async function loadIntoElasticsearch(sampleFile: string, url: string, alias: string, runDir: string, nodeFlags: string[] = []): Promise<EsLoad> {
  await deleteAlias(url, alias);
  rmSync(runDir, { recursive: true, force: true });
  const target = esTarget(url, alias, runDir);
  try {
    const figures = await loadWithIndexer(sampleFile, target, path.join(runDir, 'rejects.ndjson'), nodeFlags);
    const index = await indexFacts(url, alias);
    log(
      `  Elasticsearch index ${index.indices.join(', ')}: ${integer(index.documents)} documents, ${formatBytes(index.storeBytes)}, ` +
        `${index.primaryShards} primary shards, ${index.replicas} replicas, heap ${formatBytes(index.heapMaxBytes)}`,
    );
    return { ...figures, url, alias, index };
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
}

/** The indexer CLI's target for the alias (its DATA_DIR in runDir: the indexer creates it; nothing of the listings goes there). */
export function esTarget(url: string, alias: string, runDir: string): LoadTarget {
  return {
    env: { ES_URL: url, ES_INDEX_ALIAS: alias, DATA_DIR: path.join(runDir, 'data') },
    listings: () => indexedCount(url, alias),
    bytes: async () => (await catIndices(url, alias)).reduce((sum, i) => sum + Number(i['store.size'] ?? 0), 0),
  };
}

/** Deletes the alias's generations (`<alias>-v<N>`), its writer-lock and state indexes, by name (the cluster refuses wildcards in a delete); nothing else. */
export async function deleteAlias(url: string, alias: string): Promise<void> {
  const resolved = (await getJson(`${url}/_resolve/index/${alias}-v*,${alias}-writer-lock,${alias}-state?expand_wildcards=all&ignore_unavailable=true`)) as {
    indices: { name: string }[];
  };
  for (const { name } of resolved.indices) {
    if (name !== `${alias}-writer-lock` && name !== `${alias}-state` && !name.startsWith(`${alias}-v`)) continue;
    const response = await fetch(`${url}/${name}`, { method: 'DELETE' });
    if (!response.ok && response.status !== 404) throw new Error(`DELETE ${name}: HTTP ${response.status} ${await response.text()}`);
  }
}

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url);
  if (!response.ok) throw Object.assign(new Error(`GET ${url}: HTTP ${response.status} ${(await response.text()).slice(0, 300)}`), { status: response.status });
  return response.json();
}

/** Documents behind the alias (searchable), or null when it does not exist. */
export async function countOf(url: string, alias: string): Promise<number | null> {
  try {
    return ((await getJson(`${url}/${alias}/_count`)) as { count: number }).count;
  } catch (error) {
    if ((error as { status?: number }).status === 404) return null;
    throw error;
  }
}

/** Documents indexed so far by a load (refresh is off during it, so _count lags: the indexing total of the primaries). */
async function indexedCount(url: string, alias: string): Promise<number | null> {
  try {
    const stats = (await getJson(`${url}/${alias}/_stats/indexing?filter_path=_all.primaries.indexing.index_total`)) as {
      _all?: { primaries?: { indexing?: { index_total?: number } } };
    };
    return stats._all?.primaries?.indexing?.index_total ?? null;
  } catch {
    return null;
  }
}

type CatRow = Record<string, string>;

async function catIndices(url: string, alias: string): Promise<CatRow[]> {
  try {
    return (await getJson(`${url}/_cat/indices/${alias}?format=json&bytes=b&h=index,pri,rep,docs.count,store.size,pri.store.size`)) as CatRow[];
  } catch (error) {
    if ((error as { status?: number }).status === 404) return [];
    throw error;
  }
}

export async function indexFacts(url: string, alias: string): Promise<IndexFacts> {
  const rows = await catIndices(url, alias);
  // (GET / is not served by the distribution scripts/elasticsearch.sh runs: the version comes from _nodes.)
  const info = (await getJson(`${url}/_nodes/jvm?filter_path=nodes.*.version`)) as { nodes: Record<string, { version: string }> };
  const nodes = (await getJson(`${url}/_nodes/stats/jvm?filter_path=nodes.*.jvm.mem.heap_max_in_bytes,nodes.*.jvm.mem.heap_used_in_bytes`)) as {
    nodes: Record<string, { jvm: { mem: { heap_max_in_bytes: number; heap_used_in_bytes: number } } }>;
  };
  const jvms = Object.values(nodes.nodes).map((n) => n.jvm.mem);
  const sum = (field: string) => rows.reduce((total, r) => total + Number(r[field] ?? 0), 0);
  return {
    indices: rows.map((r) => r.index).sort(),
    documents: (await countOf(url, alias)) ?? 0,
    storeBytes: sum('store.size'),
    primaryStoreBytes: sum('pri.store.size'),
    primaryShards: sum('pri'),
    replicas: Math.max(0, ...rows.map((r) => Number(r.rep ?? 0))),
    nodes: jvms.length,
    version: [...new Set(Object.values(info.nodes).map((n) => n.version))].join(', '),
    heapMaxBytes: jvms.reduce((total, m) => total + m.heap_max_in_bytes, 0),
    heapUsedBytes: jvms.reduce((total, m) => total + m.heap_used_in_bytes, 0),
  };
}

/**
 * Pids of the cluster's node processes that run on this machine (a local node started by
 * scripts/elasticsearch.sh): the benchmark reads their CPU from /proc. Empty for a remote cluster.
 */
export async function localNodePids(url: string): Promise<number[]> {
  const nodes = (await getJson(`${url}/_nodes/process?filter_path=nodes.*.process.id`)) as { nodes?: Record<string, { process: { id: number } }> };
  return Object.values(nodes.nodes ?? {})
    .map((n) => n.process.id)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('org.elasticsearch');
      } catch {
        return false;
      }
    });
}

/** One line on the Elasticsearch a figure was measured on: version, nodes, heap, shards and replicas, store size. */
export function describeIndex(url: string, alias: string, index: IndexFacts): string {
  return (
    `Elasticsearch ${index.version} at ${url}, ${index.nodes} node${index.nodes > 1 ? 's' : ''}, heap ${formatBytes(index.heapMaxBytes)} (-Xmx); ` +
    `alias ${alias} -> ${index.indices.join(', ') || '(none)'}: ${index.primaryShards} primary shards, ${index.replicas} replicas, ` +
    `${integer(index.documents)} documents, ${formatBytes(index.storeBytes)} on disk`
  );
}
