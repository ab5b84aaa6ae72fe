/** The routes of /alertes in the route table (routes.ts), the API's only writes, kept apart from the read endpoints. */
import { alertsOffer, createAlert, deleteAlert, listAlerts, listDeliveries, showAlert } from '../routes/alertes/handler.js';
import { AlertAnswer, AlertBody, AlertCreated, AlertIdParams, AlertList, DeliveriesParams, DeliveryList } from '../routes/alertes/schema.js';
import { defineRoute, type Route, type Step } from './route.js';

/** Largest JSON body of a write (an alert's filters and URL fit in a few hundred bytes). */
export const MAX_BODY_BYTES = 16 * 1024;

/**
 * The offer gate first: an offer without alerts is refused whatever it sends. Then the request is
 * checked (unknown parameters, a bad id, a bad body: 400/422) before it costs a request token, as
 * on the read routes.
 */
const alerts = (...checks: Step[]): Step[] => ['key', 'rate', { gate: alertsOffer }, 'input', ...checks, { meter: 'alerts' }];
const common = { cache: 'no-store' };

export const ALERT_ROUTES: readonly Route[] = [
  defineRoute({
    ...common,
    path: '/alertes',
    method: 'post',
    summary: 'Creates an alert: a saved search whose new listings, price drops and withdrawals are POSTed to a URL (Secteur offer and above)',
    steps: alerts({ jsonBody: MAX_BODY_BYTES }),
    body: AlertBody,
    status: 201,
    // Set when the filters name sites the catalogue does not know.
    headers: ['unknownSources'],
    answer: AlertCreated,
    errors: [400, 402, 409, 413, 415, 422],
    description:
      'The filters are the /annonces parameters, checked as /annonces checks them (a fault is named `filtres.<parameter>`). The answer holds the signing `secret`, shown only here. One request token.',
    handler: createAlert,
  }),
  defineRoute({
    ...common,
    path: '/alertes',
    summary: "The account's alerts, oldest first, and the most it may hold",
    steps: alerts(),
    answer: AlertList,
    errors: [400, 402],
    handler: listAlerts,
  }),
  defineRoute({
    ...common,
    path: '/alertes/{id}',
    summary: 'One alert, with its state',
    steps: alerts(),
    pathParams: AlertIdParams,
    answer: AlertAnswer,
    errors: [400, 402, 404],
    handler: showAlert,
  }),
  defineRoute({
    ...common,
    path: '/alertes/{id}',
    method: 'delete',
    summary: 'Deletes an alert and the deliveries it still had to make',
    steps: alerts(),
    pathParams: AlertIdParams,
    status: 204,
    answer: null,
    errors: [400, 402, 404],
    handler: deleteAlert,
  }),
  defineRoute({
    ...common,
    path: '/alertes/{id}/livraisons',
    summary: "The alert's last finished deliveries, newest first",
    steps: alerts(),
    pathParams: AlertIdParams,
    query: DeliveriesParams,
    answer: DeliveryList,
    errors: [400, 402, 404],
    handler: listDeliveries,
  }),
];
