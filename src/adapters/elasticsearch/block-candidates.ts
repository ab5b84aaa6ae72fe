/**
 * The grouping stage's block reads as candidates (StoredCandidates, src/core/ports/listing-index.ts):
 * each hit brings the scorer's features from the binary doc value `dedup_bin` (mapping 7,
 * src/core/dedup/feature-bytes.ts) and what the key rules read, all from doc values: no stored field
 * is read (as a stored field, each hit decompressed its document's stored block). A
 * daily load reads about 36 candidates per record; as whole documents, parsing them (and the garbage
 * they left) was most of the indexer's time on Elasticsearch (docs/benchmarks.md, "The daily load").
 */
import type { estypes } from '@elastic/elasticsearch';
import { featuresOfBytes } from '../../core/dedup/feature-bytes.js';
import type { BlockCandidate } from '../../core/ports/listing-index.js';
import { DEDUP_BIN_FIELD } from './read-model.js';

/** Request parts of a block read as candidates. */
export const CANDIDATE_FIELDS = {
  _source: false,
  stored_fields: '_none_',
  docvalue_fields: ['id', DEDUP_BIN_FIELD, 'dedup_key', 'change_seq', { field: 'catalogue_entered_at', format: 'epoch_millis' }, 'block_key'],
} satisfies Partial<estypes.SearchRequest>;

/** A hit read as a candidate, or, without current feature bytes (an older document), its id and block to read it whole. */
export type CandidateHit = { candidate: BlockCandidate } | { whole: { id: string; blockKey: string } };

export function candidateOfHit(hit: estypes.SearchHit): CandidateHit {
  const fields = (hit.fields ?? {}) as Record<string, unknown[]>;
  const id = String(fields.id?.[0]);
  const blockKey = String(fields.block_key?.[0] ?? '');
  const bytes = fields[DEDUP_BIN_FIELD]?.[0];
  const features = typeof bytes === 'string' ? featuresOfBytes(id, Buffer.from(bytes, 'base64')) : null;
  if (features === null) return { whole: { id, blockKey } };
  const dedupKey = fields.dedup_key?.[0];
  return {
    candidate: {
      id,
      dedup_key: typeof dedupKey === 'string' ? dedupKey : null,
      change_seq: Number(fields.change_seq?.[0]),
      catalogue_entered_at: Number(fields.catalogue_entered_at?.[0]),
      block_key: blockKey,
      features,
    },
  };
}
