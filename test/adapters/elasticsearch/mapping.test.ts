/**
 * mappings/annonces.json against what the adapter sends and writes: a field a query uses must be
 * mapped with a type that query works on, and a document must fit the strict mapping. Without a
 * cluster this is the check that catches a renamed field before production does.
 */
import { expect } from 'chai';
import { loadIndexDefinition } from '../../../src/adapters/elasticsearch/index-definition.js';
import { toSource, MAP_POINT_FIELDS } from '../../../src/adapters/elasticsearch/document.js';
import { TEXT_FIELD } from '../../../src/adapters/elasticsearch/query-clauses.js';
import { makeListings } from '../../support/fixtures.js';
import { buildBody, loadGoldens } from './goldens.js';

interface FieldMapping {
  type?: string;
  enabled?: boolean;
  dynamic?: boolean | string;
  normalizer?: string;
  analyzer?: string;
  index?: boolean;
  properties?: Record<string, FieldMapping>;
}

const definition = loadIndexDefinition();
const root = definition.mappings as unknown as FieldMapping;

function fieldAt(path: string): FieldMapping | undefined {
  let node: FieldMapping | undefined = root;
  for (const part of path.split('.')) node = node?.properties?.[part];
  return node;
}

const KEYWORDISH = ['keyword', 'byte', 'short', 'integer', 'long', 'double', 'boolean', 'date'];
const RANGEABLE = ['byte', 'short', 'integer', 'long', 'double', 'date'];
const SORTABLE = ['keyword', 'byte', 'short', 'integer', 'long', 'double', 'date', 'geo_point'];

/** Every (query type, field) pair used anywhere in a body. */
function fieldUses(node: unknown, uses: [string, string][] = []): [string, string][] {
  if (Array.isArray(node)) {
    for (const item of node) fieldUses(item, uses);
    return uses;
  }
  if (!node || typeof node !== 'object') return uses;
  for (const [key, value] of Object.entries(node)) {
    if (['term', 'terms', 'range', 'geo_bounding_box'].includes(key)) uses.push([key, Object.keys(value as object)[0]]);
    else if (key === 'match') uses.push(['text', Object.keys(value as object)[0]]);
    else fieldUses(value, uses);
  }
  return uses;
}

describe('mappings/annonces.json', () => {
  const goldens = loadGoldens();

  it('maps every field the queries filter on, with a type that query works on', () => {
    const uses = goldens.flatMap((g) => fieldUses((buildBody(g) as { query: unknown }).query));
    const problems = [...new Set(uses.map(([kind, field]) => `${kind}:${field}`))].filter((use) => {
      const [kind, field] = use.split(':');
      const type = fieldAt(field)?.type;
      if (kind === 'term' || kind === 'terms') return !KEYWORDISH.includes(type ?? '');
      if (kind === 'range') return !RANGEABLE.includes(type ?? '');
      if (kind === 'geo_bounding_box') return type !== 'geo_point';
      return type !== 'text';
    });
    expect(problems).to.deep.equal([]);
  });

  it('maps every sort field with doc values (keyword, numbers, dates; no text)', () => {
    const sortFields = new Set(
      goldens.flatMap((g) =>
        ((buildBody(g) as { sort?: unknown[] }).sort ?? [])
          .filter((s): s is Record<string, unknown> => typeof s === 'object')
          // A distance sort names its geo_point field inside (`_geo_distance: { location: … }`).
          .map((s) => (s._geo_distance ? Object.keys(s._geo_distance as object)[0] : Object.keys(s)[0])),
      ),
    );
    for (const field of sortFields) expect(SORTABLE, field).to.include(fieldAt(field)?.type);
    expect(sortFields).to.include('id');
  });

  it('uses only analysis every distribution has: the standard analyzer on pre-made tokens, no custom chain', () => {
    expect(fieldAt(TEXT_FIELD)).to.include({ type: 'text', analyzer: 'standard' });
    expect(definition.settings).to.not.have.property('analysis');
    const analysed = JSON.stringify(definition.mappings).match(/"(analyzer|normalizer|search_analyzer)":\s*"[^"]+"/g) ?? [];
    expect(analysed).to.deep.equal(['"analyzer":"standard"']);
    expect(fieldAt('content.title')).to.equal(undefined);
    expect(fieldAt('content.description')).to.equal(undefined);
    // The tokens and the read model's texts are indexed or stored for themselves, never kept twice in _source.
    expect((definition.mappings as { _source?: { excludes?: string[] } })._source?.excludes).to.deep.equal([
      TEXT_FIELD,
      'public_bin',
      'map_json',
      'map_bin',
      'detail_json',
      'map_key',
      'lat',
      'lon',
      'dedup_bin',
    ]);
  });

  it('keys city, region and type by their folded value, and types ids and enums as keywords', () => {
    for (const field of ['city_norm', 'region_norm', 'type_norm']) expect(fieldAt(field)).to.deep.equal({ type: 'keyword' });
    for (const field of ['id', 'status', 'dedup_key', 'group_sites_ahead', 'content.source', 'content.transaction_type', 'content.dpe', 'content.ges']) {
      expect(fieldAt(field)?.type, field).to.equal('keyword');
    }
    expect(fieldAt('location')?.type).to.equal('geo_point');
  });

  it('does not index legal_info nor the price series', () => {
    expect(fieldAt('content.legal_info')).to.deep.equal({ type: 'object', enabled: false });
    expect(fieldAt('price_points')).to.deep.equal({ type: 'object', enabled: false });
    expect(fieldAt('price_digest')).to.deep.equal({ type: 'object', enabled: false });
  });

  it('allows page 1000 of 100 plus the look-ahead row (from + size = 100 001)', () => {
    expect(Number(definition.settings.index.max_result_window)).to.be.at.least(100_001);
  });

  it('is strict at the top (a misspelt field is refused) and stores the public content without indexing the rest', () => {
    expect(root.dynamic).to.equal('strict');
    expect(fieldAt('content')?.dynamic).to.equal(false);
    expect(definition.mappings._meta.mapping_version).to.be.a('number');
  });

  it('accepts the documents the adapter writes: every top-level field is mapped', () => {
    const mapped = Object.keys(root.properties ?? {});
    for (const listing of makeListings({ count: 50, seed: 3 })) {
      expect(Object.keys(toSource(listing)).filter((key) => !mapped.includes(key))).to.deep.equal([]);
    }
  });

  it('map points read only mapped or stored content fields', () => {
    for (const field of MAP_POINT_FIELDS.filter((f) => !f.startsWith('content.'))) expect(fieldAt(field), field).to.not.equal(undefined);
  });
});
