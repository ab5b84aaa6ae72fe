/**
 * The golden table (test/adapters/elasticsearch/golden/*.json): an engine-neutral query and the exact body the
 * adapter must send for it, one case per file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { FeedQuery, MapQuery, SearchQuery, WithdrawnQuery } from '../../../src/core/query/query.js';
import { buildSearchBody } from '../../../src/adapters/elasticsearch/search-body.js';
import { buildMapBody } from '../../../src/adapters/elasticsearch/map-body.js';
import { buildFeedBody } from '../../../src/adapters/elasticsearch/feed-body.js';
import { buildWithdrawnBody } from '../../../src/adapters/elasticsearch/withdrawn-body.js';

export type GoldenCase =
  | { kind: 'search'; query: SearchQuery }
  | { kind: 'map'; query: MapQuery }
  | { kind: 'feed'; query: FeedQuery }
  | { kind: 'withdrawn'; query: WithdrawnQuery };

export type Golden = GoldenCase & { file: string; description: string; body: unknown };

const GOLDEN_DIR = new URL('./golden/', import.meta.url);

export function loadGoldens(): Golden[] {
  return readdirSync(GOLDEN_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ ...JSON.parse(readFileSync(new URL(file, GOLDEN_DIR), 'utf8')), file }) as Golden);
}

export function buildBody(golden: GoldenCase): unknown {
  switch (golden.kind) {
    case 'search':
      return buildSearchBody(golden.query);
    case 'map':
      return buildMapBody(golden.query);
    case 'feed':
      return buildFeedBody(golden.query);
    case 'withdrawn':
      return buildWithdrawnBody(golden.query);
  }
}
