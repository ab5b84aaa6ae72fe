/**
 * The OpenAPI document as the client's types are generated from it. openapi-typescript renders
 * `patternProperties` (the `<field>_source` completions of an Annonce) as a string index
 * signature that contradicts the other fields, so they are left out here and index.ts declares
 * them as `${string}_source` keys instead.
 */
type Json = Record<string, unknown>;

export function clientDocument(document: Json): Json {
  return JSON.parse(JSON.stringify(document), (key, value) => (key === 'patternProperties' ? undefined : value)) as Json;
}
