/** The operations and schemas of /alertes in the OpenAPI document (openapi.ts), kept apart from the read endpoints. */
import type { z } from 'zod';
import { AlertAnswer, AlertBody, AlertCreated, AlertIdParams, AlertList, DeliveriesParams, DeliveryList } from '../routes/alertes/schema.js';
import type { Header, Operation } from './openapi.js';

export const ALERT_COMPONENTS: Record<string, z.ZodType> = { AlertBody, AlertAnswer, AlertCreated, AlertList, DeliveryList };

const HEADERS: Header[] = ['rate', 'quota'];
const common = { keyed: true, headers: HEADERS, cache: 'no-store' };

export const ALERT_OPERATIONS: Operation[] = [
  {
    ...common,
    path: '/alertes',
    method: 'post',
    summary: 'Creates an alert: a saved search whose new listings, price drops and withdrawals are POSTed to a URL (Secteur offer and above)',
    body: 'AlertBody',
    status: 201,
    headers: [...HEADERS, 'unknownSources'],
    answer: 'AlertCreated',
    errors: [400, 402, 409, 413, 415, 422],
    description:
      'The filters are the /annonces parameters, checked as /annonces checks them (a fault is named `filtres.<parameter>`). The answer holds the signing `secret`, shown only here. One request token.',
  },
  { ...common, path: '/alertes', summary: "The account's alerts, oldest first, and the most it may hold", answer: 'AlertList', errors: [402] },
  { ...common, path: '/alertes/{id}', summary: 'One alert, with its state', pathParams: AlertIdParams, answer: 'AlertAnswer', errors: [400, 402, 404] },
  {
    ...common,
    path: '/alertes/{id}',
    method: 'delete',
    summary: 'Deletes an alert and the deliveries it still had to make',
    pathParams: AlertIdParams,
    status: 204,
    answer: '',
    errors: [400, 402, 404],
  },
  {
    ...common,
    path: '/alertes/{id}/livraisons',
    summary: "The alert's last finished deliveries, newest first",
    pathParams: AlertIdParams,
    query: DeliveriesParams,
    answer: 'DeliveryList',
    errors: [400, 402, 404],
  },
];
