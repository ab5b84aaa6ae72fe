/**
 * An in-memory stand-in for the few Elasticsearch endpoints the adapter calls, behind the mock
 * connection, implementing the documented semantics of the query subset the builders emit:
 * bool filter/must_not, term, terms, range (missing value never matches), geo_bounding_box (left >
 * right crosses the antimeridian), multi_match cross_fields/and (every token in some field), sort
 * with `missing` (a value or `_last`) and `_doc`, search_after, from/size, track_total_hits, _source
 * includes/excludes, max aggregation, external_gte versions.
 *
 * It lets the shared conformance suite exercise the adapter's own logic (paging, positions,
 * visibility, document mapping) without a cluster. It is NOT Elasticsearch: text is tokenised like
 * the API (foldText, split on non-alphanumerics) without stemming, and nothing here proves how the
 * real engine parses a body. That is what the golden files and a run with ES_URL are for.
 */
import { foldText } from '../../src/refdata/text.js';
import { mockCluster, responseError, type MockCluster } from './mock-cluster.js';

type Doc = Record<string, any>;
type Clause = Record<string, any>;

const tokens = (text: unknown): Set<string> => new Set(foldText(typeof text === 'string' ? text : '').split(/[^\p{L}\p{N}]+/u).filter(Boolean));

function valuesAt(doc: Doc, path: string): unknown[] {
  let value: any = doc;
  for (const part of path.split('.')) value = value?.[part];
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function matches(doc: Doc, clause: Clause): boolean {
  const [kind, spec] = Object.entries(clause)[0];
  switch (kind) {
    case 'bool':
      return (spec.filter ?? []).every((c: Clause) => matches(doc, c)) && !(spec.must_not ?? []).some((c: Clause) => matches(doc, c));
    case 'match_all':
      return true;
    case 'term': {
      const [field, value] = Object.entries(spec)[0];
      return valuesAt(doc, field).includes(value);
    }
    case 'terms': {
      const [field, values] = Object.entries(spec)[0] as [string, unknown[]];
      return valuesAt(doc, field).some((v) => values.includes(v));
    }
    case 'range': {
      const [field, bounds] = Object.entries(spec)[0] as [string, { gte?: number; lte?: number }];
      return valuesAt(doc, field).some((v) => typeof v === 'number' && (bounds.gte === undefined || v >= bounds.gte) && (bounds.lte === undefined || v <= bounds.lte));
    }
    case 'geo_bounding_box': {
      const [field, box] = Object.entries(spec)[0] as [string, { top_left: { lat: number; lon: number }; bottom_right: { lat: number; lon: number } }];
      return valuesAt(doc, field).some((p: any) => {
        if (p.lat < box.bottom_right.lat || p.lat > box.top_left.lat) return false;
        const [left, right] = [box.top_left.lon, box.bottom_right.lon];
        return left <= right ? p.lon >= left && p.lon <= right : p.lon >= left || p.lon <= right;
      });
    }
    case 'multi_match': {
      if (spec.type !== 'cross_fields' || spec.operator !== 'and') throw new Error('simulated cluster: only cross_fields/and');
      const fieldTokens = (spec.fields as string[]).map((f) => tokens(valuesAt(doc, f)[0]));
      return [...tokens(spec.query)].every((t) => fieldTokens.some((set) => set.has(t)));
    }
    default:
      throw new Error(`simulated cluster: unsupported query ${kind}`);
  }
}

interface SortKey { field: string; descending: boolean; missing: unknown }

function sortKeys(sort: unknown[]): SortKey[] {
  return sort.map((s) => {
    if (s === '_doc') return { field: '_doc', descending: false, missing: undefined };
    const [field, spec] = Object.entries(s as Record<string, { order?: string; missing?: unknown }>)[0];
    return { field, descending: spec.order === 'desc', missing: spec.missing ?? '_last' };
  });
}

function sortValues(doc: Doc, seq: number, keys: SortKey[]): unknown[] {
  return keys.map((k) => {
    if (k.field === '_doc') return seq;
    const value = valuesAt(doc, k.field)[0];
    if (value !== undefined) return value;
    if (k.missing === '_last') return k.descending ? -Infinity : Infinity;
    if (k.missing === '_first') return k.descending ? Infinity : -Infinity;
    return k.missing;
  });
}

function compare(a: unknown[], b: unknown[], keys: SortKey[]): number {
  for (let i = 0; i < keys.length; i++) {
    const [x, y] = [a[i] as any, b[i] as any];
    const order = x < y ? -1 : x > y ? 1 : 0;
    if (order !== 0) return keys[i].descending ? -order : order;
  }
  return 0;
}

function filterSource(doc: Doc, source: { includes?: string[]; excludes?: string[] } | undefined): Doc {
  const copy = JSON.parse(JSON.stringify(doc)) as Doc;
  if (source?.excludes) for (const path of source.excludes) delete copy[path];
  if (!source?.includes) return copy;
  const out: Doc = {};
  for (const path of source.includes) {
    const [head, tail] = path.split('.');
    if (tail === undefined) { if (head in copy) out[head] = copy[head]; continue; }
    if (copy[head] && tail in copy[head]) out[head] = { ...out[head], [tail]: copy[head][tail] };
  }
  return out;
}

export interface SimulatedCluster extends MockCluster {
  docs: Map<string, { source: Doc; version: number; seq: number }>;
}

export function simulatedCluster(alias: string): SimulatedCluster {
  const cluster = mockCluster() as SimulatedCluster;
  const docs: SimulatedCluster['docs'] = new Map();
  let seq = 0;
  cluster.docs = docs;

  cluster.on('POST', '/_bulk', (params) => {
    const items = [];
    for (let i = 0; i < params.body.length; i += 2) {
      const action = params.body[i].index;
      const current = docs.get(action._id);
      if (action.version_type !== 'external_gte') throw new Error('simulated cluster: writes must carry external_gte versions');
      if (current && current.version > action.version) {
        items.push({ index: { _id: action._id, status: 409, error: { type: 'version_conflict_engine_exception', reason: 'version conflict' } } });
        continue;
      }
      docs.set(action._id, { source: params.body[i + 1], version: action.version, seq: current?.seq ?? seq++ });
      items.push({ index: { _id: action._id, status: current ? 200 : 201 } });
    }
    return { errors: items.some((i) => i.index.status >= 300), items };
  });
  cluster.on('GET', `/${alias}/_refresh`, () => ({ _shards: { total: 1, successful: 1, failed: 0 } }));
  cluster.on('GET', `/${alias}/_count`, () => ({ count: docs.size }));
  cluster.on('GET', `/${alias}/_doc/:id`, (params) => {
    const id = decodeURIComponent(params.path.split('/_doc/')[1]);
    const doc = docs.get(id);
    return doc ? { _id: id, found: true, _source: doc.source } : responseError(404, { _id: id, found: false });
  });
  cluster.on('POST', `/${alias}/_mget`, (params) => ({
    docs: (params.body.ids as string[]).map((id) => (docs.has(id) ? { _id: id, found: true, _source: docs.get(id)!.source } : { _id: id, found: false })),
  }));
  cluster.on('POST', `/${alias}/_search`, (params) => {
    const body = params.body;
    const query = body.query ?? { match_all: {} };
    const keys = sortKeys(body.sort ?? ['_doc']);
    let hits = [...docs.entries()].filter(([, d]) => matches(d.source, query))
      .map(([id, d]) => ({ id, doc: d.source, sort: sortValues(d.source, d.seq, keys) }))
      .sort((a, b) => compare(a.sort, b.sort, keys));
    const total = hits.length;
    if (body.search_after) hits = hits.filter((h) => compare(h.sort, body.search_after, keys) > 0);
    const from = body.from ?? 0;
    const page = hits.slice(from, from + (body.size ?? 10));
    const aggregations: Record<string, unknown> = {};
    for (const [name, agg] of Object.entries((body.aggs ?? {}) as Record<string, { max: { field: string } }>)) {
      const values = [...docs.values()].flatMap((d) => valuesAt(d.source, agg.max.field)) as number[];
      aggregations[name] = { value: values.length ? Math.max(...values) : null };
    }
    return {
      hits: {
        ...(body.track_total_hits === true ? { total: { value: total, relation: 'eq' } } : {}),
        hits: page.map((h) => ({ _id: h.id, _source: filterSource(h.doc, body._source), sort: h.sort })),
      },
      ...(body.aggs ? { aggregations } : {}),
    };
  });
  return cluster;
}
