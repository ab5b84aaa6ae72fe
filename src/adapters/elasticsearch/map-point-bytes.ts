/**
 * A map point as one byte string (`map_bin`, mapping 8, a binary doc value): what a capped map reads
 * of each hit in one doc value, where mapping 7 read four (the text, its version and the two plain
 * coordinates the hit's cell is found by). Each doc value a hit asks for costs the node a lookup and
 * a JSON value per hit; the doubles cost the most (a map's read of 3 000 hits took about 70 % longer
 * with them, docs/benchmarks.md).
 *
 * Layout (19 bytes, then the text): the layout's version (1 byte), the presenter's version
 * (PUBLIC_JSON_VERSION, 2 bytes), the latitude and the longitude (IEEE doubles, the values the
 * `lat` and `lon` doc values hold and the cells are counted by), then the point's JSON text in UTF-8.
 * All little-endian.
 */

/** Changes when the layout changes; bytes of another layout are not read. */
export const MAP_POINT_BYTES_VERSION = 1;
const HEAD_BYTES = 19;

export interface MapPointBytes {
  latitude: number;
  longitude: number;
  /** The point's JSON text (a view of the bytes read, not a copy). */
  text: Buffer;
}

export function mapPointBytesOf(presenterVersion: number, latitude: number, longitude: number, text: string): Buffer {
  const bytes = Buffer.allocUnsafe(HEAD_BYTES + Buffer.byteLength(text));
  bytes.writeUInt8(MAP_POINT_BYTES_VERSION, 0);
  bytes.writeUInt16LE(presenterVersion, 1);
  bytes.writeDoubleLE(latitude, 3);
  bytes.writeDoubleLE(longitude, 11);
  bytes.write(text, HEAD_BYTES, 'utf8');
  return bytes;
}

/** The point of `bytes` written by `presenterVersion`; null when of another layout or version, or cut short. */
export function mapPointOfBytes(bytes: Buffer, presenterVersion: number): MapPointBytes | null {
  if (bytes.length <= HEAD_BYTES || bytes.readUInt8(0) !== MAP_POINT_BYTES_VERSION || bytes.readUInt16LE(1) !== presenterVersion) return null;
  return { latitude: bytes.readDoubleLE(3), longitude: bytes.readDoubleLE(11), text: bytes.subarray(HEAD_BYTES) };
}
