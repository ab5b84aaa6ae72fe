/** GET /annonces parameters (docs/api.md). */
import { z } from 'zod';
import { SEARCH_SORT_NAMES } from '../../../core/query/query.js';
import { Annonce } from '../../../core/model/annonce.js';
import { boundsInOrder, listingFilterParams } from '../shared/listing-filter.js';
import { cursor, integer, oneOf, pageSize } from '../shared/params.js';
import { facetList, Facets } from './facets.js';
import { areaParams, areaRules } from '../shared/area-params.js';

export const SearchParams = z
  .object({
    ...listingFilterParams,
    /** Obsolete, without effect; still accepted (docs/api.md). */
    source: oneOf(['all', 'interne', 'scraped'], 'must be all, interne or scraped').optional(),
    sort: oneOf(SEARCH_SORT_NAMES, `must be one of ${SEARCH_SORT_NAMES.join(', ')}`)
      .optional()
      .transform((v) => v ?? 'recent'),
    page: integer(1, 1000).transform((v) => v ?? 1),
    page_size: pageSize(25),
    cursor,
    dedup: oneOf(['0', '1', 'false', 'true'], 'must be 0 or 1').optional(),
    facets: facetList,
    ...areaParams,
  })
  .superRefine((params, ctx) => {
    boundsInOrder(params, ctx);
    // sort=distance ranks from `centre`, which it needs and which then needs no radius.
    areaRules(params, ctx, params.sort === 'distance');
    if (params.sort === 'distance' && params.centre === undefined) {
      ctx.addIssue({ code: 'custom', path: ['sort'], message: 'sort=distance needs centre=lat,lon' });
    }
  });
export type SearchParams = z.infer<typeof SearchParams>;

export const SearchPage = z.object({
  page: z.number().int().min(1).describe('Number of this page (1 to 1 000), also when it was reached by cursor.'),
  page_size: z.number().int().min(1).max(100).describe('Listings asked per page.'),
  has_more: z.boolean().describe('True when another page follows.'),
  next_cursor: z.string().max(500).nullable().describe('The cursor of the next page, null on the last one.'),
  total: z.number().int().min(0).optional().describe('With `facets` only: the listings of the whole query, every filter applied.'),
  facets: Facets.optional().describe('With `facets` only (docs/api.md "Facets").'),
  items: z.array(Annonce).describe('The listings of the page, in the order of `sort`.'),
});
