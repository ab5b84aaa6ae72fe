/**
 * GET /annonces/{source}/{reference}: any active listing of the caller's access period (photo or not,
 * duplicate or not). Costs one listing. The full price series only for offers with that capability.
 */
import { callerOf, type ApiContext, type AppDeps } from '../../http/state.js';
import { notFound } from '../../http/errors.js';
import { listingId } from '../../../core/model/stored.js';
import { presentAnnonce } from '../../../core/model/present.js';
import type { DetailParams, ListingDetail } from './schema.js';
import type { z } from 'zod';

export function showListing(deps: AppDeps) {
  return async function showListingHandler(ctx: ApiContext, params: DetailParams): Promise<void> {
    const caller = callerOf(ctx);
    const listing = await deps.listings.get(listingId(params.source, params.reference));
    if (listing?.status !== 'active' || listing.catalogue_entered_at < caller.enteredFrom) {
      throw notFound(`No listing ${params.source}/${params.reference} in your access period`);
    }
    ctx.state.delivered = [listing.id];
    ctx.body = { annonce: presentAnnonce(listing, { withPricePoints: caller.offer.priceSeries }) } satisfies z.infer<typeof ListingDetail>;
  };
}
