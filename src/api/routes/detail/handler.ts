/**
 * GET /annonces/{source}/{reference}: any active listing of the caller's access period (photo or not,
 * duplicate or not). Costs one listing. The full price series only for offers with that capability.
 * The Annonce is the store's presented text (ListingReader.getPresented), sent as it is.
 */
import { callerOf, type ApiContext, type AppDeps } from '../../http/state.js';
import { notFound } from '../../http/errors.js';
import { JsonTextValue, sendJson } from '../../http/json-body.js';
import { listingId } from '../../../core/model/stored.js';
import type { DetailParams } from './schema.js';

export function showListing(deps: AppDeps) {
  return async function showListingHandler(ctx: ApiContext, params: DetailParams): Promise<void> {
    const caller = callerOf(ctx);
    const listing = await deps.listings.getPresented(listingId(params.source, params.reference), { withPricePoints: caller.offer.priceSeries });
    if (listing?.status !== 'active' || listing.catalogue_entered_at < caller.enteredFrom) {
      throw notFound(`No listing ${params.source}/${params.reference} in your access period`);
    }
    ctx.state.delivered = [listing.id];
    // The body ListingDetail (schema.ts) describes: { annonce: Annonce }.
    sendJson(ctx, { annonce: new JsonTextValue(listing.annonce) });
  };
}
