/**
 * The `facets` parameter of GET /annonces and the `facets` object of its answer (docs/api.md
 * "Facets"): the engine-neutral counts (src/core/query/facets.ts) in the public shape.
 */
import { z } from 'zod';
import { FACET_NAMES, type FacetName, type FacetsResult } from '../../../core/query/facets.js';

/** `facets=type,dpe`: a comma-separated list of facet names, each once. */
export const facetList = z
  .string('given more than once; must be given once, as a string')
  .max(200, 'at most 200 characters')
  .transform((value, ctx) => {
    const names = [
      ...new Set(
        value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    const wrong = names.filter((name) => !(FACET_NAMES as readonly string[]).includes(name));
    if (wrong.length) {
      ctx.addIssue({ code: 'custom', message: `unknown facet ${wrong[0].slice(0, 40)}; facets are ${FACET_NAMES.join(', ')}` });
      return z.NEVER;
    }
    return names as FacetName[];
  })
  .optional()
  .transform((v) => (v?.length ? v : undefined));

const valueFacet = <V extends z.ZodType>(value: V) =>
  z.object({
    buckets: z.array(z.object({ value, count: z.number().int().min(1) })).describe('Most frequent first, then by value.'),
    other: z.number().int().min(0).describe('Listings with a value past the 200 listed.'),
    unknown: z.number().int().min(0).describe('Listings without a value.'),
  });
const TextFacet = valueFacet(z.string());
const NumberFacet = valueFacet(z.number().int());

const RangeFacet = z.object({
  buckets: z
    .array(z.object({ from: z.number(), to: z.number().nullable(), count: z.number().int().min(0) }))
    .describe('Every range, empty ones too: from included, to excluded (null: no upper bound).'),
  unknown: z.number().int().min(0).describe('Listings without a value.'),
});

export const Facets = z.object({
  type: TextFacet.optional().describe('By folded property type (the values `type=` takes).'),
  pieces: NumberFacet.optional().describe('By number of rooms.'),
  dpe: TextFacet.optional().describe('By energy letter.'),
  source: TextFacet.optional().describe('By site; counted over every site (its own filter is `sources`/`exclude_sources`).'),
  prix: RangeFacet.optional().describe('By price range: sale prices, or monthly rents with transaction=location.'),
  surface: RangeFacet.optional().describe('By living surface range, in m2.'),
});

/** The answer's `facets`: each facet asked, in the order of FACET_NAMES. */
export function presentFacets(result: FacetsResult): z.infer<typeof Facets> {
  const answer: Record<string, unknown> = {};
  for (const name of FACET_NAMES) {
    const counts = result.facets[name];
    if (!counts) continue;
    answer[name] =
      counts.kind === 'value'
        ? { buckets: counts.buckets, other: counts.other, unknown: counts.unknown }
        : { buckets: counts.buckets, unknown: counts.unknown };
  }
  return answer as z.infer<typeof Facets>;
}
