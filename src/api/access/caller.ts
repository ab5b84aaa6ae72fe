/** Who is calling: the account of the request's key and its offer, set by the authenticate middleware. */
import type { Account, ApiKeyRecord } from '../../core/ports/access-store.js';
import type { Offer } from './offers.js';

export interface Caller {
  account: Account;
  offer: Offer;
  key: ApiKeyRecord;
  /** Access start date as epoch ms (00:00 UTC of X-Annonces-From). */
  enteredFrom: number;
}
