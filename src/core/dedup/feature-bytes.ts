/**
 * A listing's stored features (features.ts FEATURE_COLUMNS) as one byte string, for an engine that
 * keeps them in one field rather than in columns (Elasticsearch's `dedup_bin`, a stored binary): a
 * block read then returns each candidate's features, not its whole document.
 *
 * Layout: the length of a JSON head (4 bytes, little-endian), the head `[FEATURE_BYTES_VERSION, ...the
 * scalar values in column order]`, zero bytes up to a multiple of 4, then the shingles as 32-bit
 * integers (as the SQLite BLOB holds them).
 */
import type { StoredListing } from '../model/stored.js';
import { featuresFromValues, featureValuesOf, type Features } from './features.js';

/** Changes when the layout or the features change meaning; bytes of another version are not read. */
export const FEATURE_BYTES_VERSION = 1;

const SHINGLES_COLUMN = 16;

export function featureBytesOf(listing: Pick<StoredListing, 'id' | 'content' | 'completed_from'>): Buffer {
  const values = featureValuesOf(listing);
  const head = Buffer.from(JSON.stringify([FEATURE_BYTES_VERSION, ...values.slice(0, SHINGLES_COLUMN)]));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(head.length);
  const padding = Buffer.alloc((4 - (head.length % 4)) % 4);
  return Buffer.concat([length, head, padding, values[SHINGLES_COLUMN] as Buffer]);
}

/** The features of listing `id` from its bytes; null when they are of another version or cut short. */
export function featuresOfBytes(id: string, bytes: Buffer): Features | null {
  if (bytes.length < 4) return null;
  const length = bytes.readUInt32LE(0);
  const shinglesAt = 4 + length + ((4 - (length % 4)) % 4);
  if (shinglesAt > bytes.length || (bytes.length - shinglesAt) % 4 !== 0) return null;
  const head = JSON.parse(bytes.toString('utf8', 4, 4 + length)) as unknown[];
  if (head[0] !== FEATURE_BYTES_VERSION || head.length !== SHINGLES_COLUMN + 1) return null;
  return featuresFromValues(id, [...head.slice(1), bytes.subarray(shinglesAt)], 0);
}
