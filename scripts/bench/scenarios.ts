/**
 * The scenarios of issue 7 and their targets (1M listings, 50 connections, 2 cores). Each one is a
 * list of API paths (relative to /api/v1) drawn from the catalogue's facts with a seeded random
 * generator: the load cycles over them, and the raw store timing asks the same questions.
 */
import type { CatalogueFacts } from './fixtures.js';
import { COMMON_WORD, RARE_WORDS } from './fixtures.js';
import { pick } from './stats.js';

export type Metric =
  | 'rps'
  | 'p50'
  | 'p99'
  | 'ratio'
  | 'listingsPerSecond'
  | 'vsCursorPage1'
  /** One-connection p50 over the bare node:http server's, its CPU per request over the bare server's, over the raw store time. */
  | 'vsBare1c'
  | 'cpuVsBare'
  | 'cpuVsRaw'
  /** Requests/s lost at the default log level against LOG_LEVEL=silent, in % (log-cost.ts). */
  | 'logCost'
  /** On Elasticsearch: the API's requests/s over the node's, answering the API's own requests directly (es-direct.ts). */
  | 'vsDirect';

export interface Target {
  metric: Metric;
  op: '>=' | '<=';
  value: number;
}

export interface ScenarioContext {
  facts: CatalogueFacts;
  random: () => number;
  /** GET on the running API with the bench key (used to walk cursors). */
  get(path: string): Promise<{ status: number; body: any }>;
  cursorPages: number;
  log(message: string): void;
}

export interface Scenario {
  name: string;
  title: string;
  /** `load`: autocannon with C connections; `replication`: one client walking the feed to its end. */
  kind: 'load' | 'replication';
  targets: Target[];
  /**
   * Requests sent by as many more connections during the scenario's measured load (not in its
   * figures): whether the scenario still answers while they run. Their answers are counted apart.
   */
  beside?: (ctx: ScenarioContext) => Promise<string[]>;
  /** A search, sort, text, cursor, flow, map or aggregate read: on Elasticsearch held to the node's own rate (vsDirect). */
  searchLike?: boolean;
  paths(ctx: ScenarioContext): Promise<string[]>;
}

/** Distinct parameter sets per scenario. */
const VARIANTS = 500;

const SORTS = ['recent', 'price_asc', 'price_desc', 'surface_desc', 'pricem2_asc'] as const;

/** Queries deep enough for page 1 000 (25 000 results) on a 1M catalogue, walked by cursor. */
const DEEP_QUERIES = ['sort=recent', 'sort=recent&transaction=vente', 'sort=price_asc&type=maison', 'sort=surface_desc&transaction=location'];

/** Paris intra-muros is about 48.816..48.902 N, 2.225..2.470 E. */
const PARIS = { lat: 48.859, lon: 2.347, halfLat: 0.043, halfLon: 0.1225 };
/** Metropolitan France with Corsica. */
const FRANCE = { south: 41.3, west: -5.2, north: 51.1, east: 9.6 };

const dept = (ctx: ScenarioContext) => pick(ctx.facts.departments, ctx.random).code;
const variants = (make: () => string): string[] => Array.from({ length: VARIANTS }, make);
const deg = (n: number) => n.toFixed(4);

/** A Paris-size box around a point near the centre of Paris (`bbox` parameter). */
function parisBox(ctx: ScenarioContext): string {
  const lat = PARIS.lat + (ctx.random() - 0.5) * 0.04;
  const lon = PARIS.lon + (ctx.random() - 0.5) * 0.06;
  return `${deg(lat - PARIS.halfLat)},${deg(lon - PARIS.halfLon)},${deg(lat + PARIS.halfLat)},${deg(lon + PARIS.halfLon)}`;
}

/** Metropolitan France, each edge moved a little. */
function franceBox(ctx: ScenarioContext): string {
  const jitter = () => (ctx.random() - 0.5) * 0.2;
  return `${deg(FRANCE.south + jitter())},${deg(FRANCE.west + jitter())},${deg(FRANCE.north + jitter())},${deg(FRANCE.east + jitter())}`;
}

/**
 * A Paris-size polygon of 50 vertices (`polygone` parameter): a star-shaped ring around a point near
 * the centre of Paris, each vertex at its own angle and distance, so it never crosses itself.
 */
function parisPolygon(ctx: ScenarioContext): string {
  const lat = PARIS.lat + (ctx.random() - 0.5) * 0.02;
  const lon = PARIS.lon + (ctx.random() - 0.5) * 0.03;
  return Array.from({ length: 50 }, (_, i) => {
    const angle = (2 * Math.PI * i) / 50;
    const reach = 0.7 + ctx.random() * 0.3;
    return `${deg(lat + Math.sin(angle) * PARIS.halfLat * reach)},${deg(lon + Math.cos(angle) * PARIS.halfLon * reach)}`;
  }).join(';');
}

/** A point near the centre of Paris (`centre` parameter). */
function parisCentre(ctx: ScenarioContext): string {
  return `${deg(PARIS.lat + (ctx.random() - 0.5) * 0.04)},${deg(PARIS.lon + (ctx.random() - 0.5) * 0.06)}`;
}

/** Follows next_cursor from page 1 up to page `pages` (or the last page); returns the cursor of that page. */
async function walkToPage(ctx: ScenarioContext, query: string, pages: number): Promise<{ cursor: string | null; page: number }> {
  let cursor: string | null = null;
  let page = 1;
  while (page < pages) {
    const answer: { status: number; body: any } = await ctx.get(`/annonces?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    if (answer.status !== 200) throw new Error(`walking ${query}: HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    if (!answer.body.next_cursor) break;
    cursor = answer.body.next_cursor;
    page++;
  }
  return { cursor, page };
}

const SCENARIO_TABLE: Scenario[] = [
  {
    // One page, always the same: what the API adds to a query the store answers in a fraction of a
    // millisecond, against the raw statement and a bare node:http server sending the same bytes; the
    // log-level comparison (log-cost.ts) runs on it.
    name: 'dept-page',
    title: "/annonces?dept=75&page_size=25 (one page, the API's own cost)",
    kind: 'load',
    targets: [
      { metric: 'ratio', op: '<=', value: 3 },
      { metric: 'cpuVsBare', op: '<=', value: 3 },
      { metric: 'logCost', op: '<=', value: 5 },
    ],
    paths: async () => ['/annonces?dept=75&page_size=25'],
  },
  {
    name: 'search',
    title: '/annonces dept + price range, sort=recent, 25 items',
    kind: 'load',
    targets: [
      { metric: 'rps', op: '>=', value: 2000 },
      { metric: 'p99', op: '<=', value: 50 },
      { metric: 'ratio', op: '<=', value: 2.0 },
    ],
    paths: async (ctx) =>
      variants(() => {
        const low = pick([50_000, 100_000, 150_000, 200_000], ctx.random);
        const high = low + pick([150_000, 250_000, 400_000], ctx.random);
        return `/annonces?dept=${dept(ctx)}&prix_min=${low}&prix_max=${high}&sort=recent&page_size=25`;
      }),
  },
  ...SORTS.map(
    (sort): Scenario => ({
      name: `sort-${sort}`,
      title: `/annonces dept + type, sort=${sort}`,
      kind: 'load',
      targets: [{ metric: 'p50', op: '<=', value: 10 }],
      paths: async (ctx) => variants(() => `/annonces?dept=${dept(ctx)}&type=${pick(['appartement', 'maison'], ctx.random)}&sort=${sort}`),
    }),
  ),
  {
    // Not a target of the issue: the price sorts across France, a transaction and at most one type,
    // which walked every rental before the first sale (schema.ts ix_main_tx_*).
    name: 'sort-france',
    title: '/annonces transaction (+ one type), a price sort, no place',
    kind: 'load',
    targets: [],
    paths: async (ctx) =>
      variants(() => {
        const type = pick(['', '&type=maison', '&type=appartement'], ctx.random);
        return `/annonces?transaction=${pick(['vente', 'location'], ctx.random)}${type}&sort=${pick(['price_asc', 'price_desc', 'pricem2_asc'], ctx.random)}`;
      }),
  },
  {
    name: 'text-common',
    title: `q=${COMMON_WORD} (~25 % of listings) + dept`,
    kind: 'load',
    targets: [{ metric: 'p50', op: '<=', value: 30 }],
    paths: async (ctx) => variants(() => `/annonces?q=${COMMON_WORD}&dept=${dept(ctx)}`),
  },
  {
    name: 'text-rare',
    title: `q=${RARE_WORDS.join(', ')} (rare) + dept + transaction`,
    kind: 'load',
    targets: [{ metric: 'p50', op: '<=', value: 10 }],
    paths: async (ctx) => variants(() => `/annonces?q=${pick(RARE_WORDS, ctx.random)}&dept=${dept(ctx)}&transaction=vente`),
  },
  {
    name: 'text-rare-alone',
    title: `q=${RARE_WORDS[0]} alone (no other filter)`,
    kind: 'load',
    targets: [{ metric: 'p50', op: '<=', value: 10 }],
    paths: async () => [`/annonces?q=${RARE_WORDS[0]}`],
  },
  {
    name: 'cursor-p1',
    title: 'cursor walk: page 1',
    kind: 'load',
    targets: [],
    paths: async () => DEEP_QUERIES.map((q) => `/annonces?${q}`),
  },
  {
    name: 'cursor-deep',
    title: 'cursor walk: page 1 000 by cursor',
    kind: 'load',
    targets: [{ metric: 'vsCursorPage1', op: '<=', value: 1.3 }],
    paths: async (ctx) => {
      const paths: string[] = [];
      for (const query of DEEP_QUERIES) {
        const started = Date.now();
        const { cursor, page } = await walkToPage(ctx, query, ctx.cursorPages);
        ctx.log(`  walked ${query} to page ${page} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        if (cursor) paths.push(`/annonces?${query}&cursor=${encodeURIComponent(cursor)}`);
      }
      if (paths.length === 0) throw new Error('no query has a second page: the catalogue is too small for the cursor walk');
      return paths;
    },
  },
  ...[50, 1000].map(
    (page): Scenario => ({
      name: `page-${page}`,
      title: `page mode, page=${page}`,
      kind: 'load',
      targets: [],
      paths: async () => DEEP_QUERIES.map((q) => `/annonces?${q}&page=${page}`),
    }),
  ),
  {
    // Deep pages cannot starve the rest: searches measured while as many connections ask for page 1 000.
    name: 'search-beside-page-1000',
    title: '/annonces dept + price range while other clients ask for page=1000',
    kind: 'load',
    targets: [],
    paths: async (ctx) => variants(() => `/annonces?dept=${dept(ctx)}&prix_min=100000&prix_max=250000&sort=recent&page_size=25`),
    beside: async () => DEEP_QUERIES.map((q) => `/annonces?${q}&page=1000`),
  },
  {
    name: 'map-paris',
    title: '/annonces/map Paris-size box, 2 000 points + exact total',
    kind: 'load',
    targets: [
      { metric: 'p50', op: '<=', value: 40 },
      { metric: 'p99', op: '<=', value: 100 },
      { metric: 'cpuVsRaw', op: '<=', value: 2 },
    ],
    paths: async (ctx) => variants(() => `/annonces/map?bbox=${parisBox(ctx)}`),
  },
  {
    name: 'map-paris-repeat',
    title: '/annonces/map the same 8 Paris boxes again and again (kept answers)',
    kind: 'load',
    targets: [
      { metric: 'p50', op: '<=', value: 40 },
      { metric: 'p99', op: '<=', value: 100 },
    ],
    // The boxes a map front-end asks again: its default view and a few pans, for every visitor.
    paths: async (ctx) => {
      const boxes = Array.from({ length: 8 }, () => `/annonces/map?bbox=${parisBox(ctx)}`);
      return Array.from({ length: VARIANTS }, (_, i) => boxes[i % boxes.length]);
    },
  },
  {
    name: 'map-france',
    title: '/annonces/map whole-France box (capped: 2 000 points spread over a 10 x 10 grid)',
    kind: 'load',
    targets: [{ metric: 'p50', op: '<=', value: 150 }],
    paths: async (ctx) => variants(() => `/annonces/map?bbox=${franceBox(ctx)}`),
  },
  {
    name: 'clusters-france',
    title: '/annonces/map/clusters whole-France box, zoom 5',
    kind: 'load',
    targets: [{ metric: 'p50', op: '<=', value: 150 }],
    paths: async (ctx) => variants(() => `/annonces/map/clusters?bbox=${franceBox(ctx)}&zoom=5`),
  },
  {
    name: 'clusters-paris',
    title: '/annonces/map/clusters Paris-size box, zoom 12',
    kind: 'load',
    targets: [{ metric: 'p50', op: '<=', value: 40 }],
    paths: async (ctx) => variants(() => `/annonces/map/clusters?bbox=${parisBox(ctx)}&zoom=12`),
  },
  {
    name: 'facets-dept',
    title: '/annonces of a department with every facet (type, pieces, dpe, prix, surface, source)',
    kind: 'load',
    targets: [{ metric: 'p50', op: '<=', value: 150 }],
    paths: async (ctx) => variants(() => `/annonces?dept=${dept(ctx)}&transaction=vente&facets=type,pieces,dpe,prix,surface,source`),
  },
  {
    name: 'polygon-paris',
    title: '/annonces in a Paris polygon of 50 vertices, sort=recent',
    kind: 'load',
    targets: [{ metric: 'p50', op: '<=', value: 50 }],
    paths: async (ctx) => variants(() => `/annonces?polygone=${parisPolygon(ctx)}`),
  },
  {
    name: 'radius-distance',
    title: '/annonces within 5 km of a Paris point, sort=distance',
    kind: 'load',
    targets: [{ metric: 'p50', op: '<=', value: 50 }],
    paths: async (ctx) => variants(() => `/annonces?centre=${parisCentre(ctx)}&rayon_km=5&sort=distance`),
  },
  {
    name: 'stats-dept',
    title: '/stats of a department (one of the 20 largest), vente + type',
    kind: 'load',
    targets: [{ metric: 'p50', op: '<=', value: 150 }],
    paths: async (ctx) => variants(() => `/stats?dept=${dept(ctx)}&transaction=vente&type=${pick(['appartement', 'maison'], ctx.random)}`),
  },
  {
    name: 'stats-cp',
    title: '/stats of a postal code',
    kind: 'load',
    targets: [{ metric: 'p50', op: '<=', value: 40 }],
    paths: async (ctx) => variants(() => `/stats?cp=${pick(ctx.facts.postalCodes, ctx.random)}`),
  },
  {
    name: 'feed',
    title: 'feed replication, page_size 100, one client',
    kind: 'replication',
    targets: [{ metric: 'listingsPerSecond', op: '>=', value: 20_000 }],
    paths: async () => ['/annonces/feed?page_size=100'],
  },
  {
    // One page of the feed and of the withdrawn flow under load (the replication above walks the feed alone).
    name: 'feed-page',
    title: '/annonces/feed page_size 100, first page, whole or by department',
    kind: 'load',
    targets: [],
    paths: async (ctx) => ['/annonces/feed?page_size=100', ...variants(() => `/annonces/feed?page_size=100&dept=${dept(ctx)}`)],
  },
  {
    name: 'withdrawn-page',
    title: '/annonces/retirees page_size 100, first page',
    kind: 'load',
    targets: [],
    paths: async () => ['/annonces/retirees?page_size=100'],
  },
  {
    name: 'detail',
    title: 'detail by (source, reference)',
    kind: 'load',
    targets: [{ metric: 'rps', op: '>=', value: 3000 }],
    paths: async (ctx) => ctx.facts.listings.map((l) => `/annonces/${encodeURIComponent(l.source)}/${encodeURIComponent(l.reference)}`),
  },
  {
    name: 'ptz',
    title: '/ptz/zone',
    kind: 'load',
    targets: [{ metric: 'rps', op: '>=', value: 8000 }],
    paths: async (ctx) => ctx.facts.postalCodes.map((cp) => `/ptz/zone?cp=${cp}`),
  },
];

/** The reads that are one engine request for one API request: held to the node's own rate on Elasticsearch. */
const SEARCH_LIKE = /^(dept-page|search|sort-|text-|cursor-|map-|clusters-|stats-|feed-page|withdrawn-page)/;

export const SCENARIOS: Scenario[] = SCENARIO_TABLE.map((s) => ({ ...s, searchLike: SEARCH_LIKE.test(s.name) }));

/** `--scenario NAME[,NAME...]`: each name exact, or every scenario whose name starts with it; in the order given. */
export function selectScenarios(names: string | null): Scenario[] {
  if (names === null) return SCENARIOS;
  return names.split(',').flatMap((name) => {
    const exact = SCENARIOS.filter((s) => s.name === name);
    const chosen = exact.length ? exact : SCENARIOS.filter((s) => s.name.startsWith(name));
    if (chosen.length === 0) throw new Error(`unknown scenario "${name}"; one of: ${SCENARIOS.map((s) => s.name).join(', ')}`);
    return chosen;
  });
}
