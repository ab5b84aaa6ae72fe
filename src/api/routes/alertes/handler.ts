/**
 * /alertes: saved searches that push (docs/api.md "Alerts"). An account of an offer with alerts
 * (`maxAlerts` above 0, Secteur and up) creates, lists, reads and deletes its own alerts; another
 * account's alert is a 404, as if it did not exist. The notifier (src/notifier/) delivers them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Next } from 'koa';
import type { z } from 'zod';
import { callerOf, type ApiContext, type AppDeps } from '../../http/state.js';
import { ApiError, badRequest, notFound } from '../../http/errors.js';
import { rejection } from '../../http/middleware/validate.js';
import { ALERT_EVENTS, type Alert } from '../../../core/ports/alert-store.js';
import { receiverUrlProblem } from '../../../core/alerts/receiver-url.js';
import { toListingFilter } from '../shared/listing-filter.js';
import { resolveSites } from '../shared/scope.js';
import { ALERT_BODY_FIELDS, ALERT_FILTER_NAMES, AlertBody, AlertFilters, type AlertIdParams, type DeliveriesParams } from './schema.js';
import { presentAlert, presentDelivery } from './present.js';

/** Before the body is read: an offer without alerts is refused whatever it sends. */
export function alertsOffer() {
  return async function alertsOfferMiddleware(ctx: ApiContext, next: Next): Promise<void> {
    if (callerOf(ctx).offer.maxAlerts === 0) {
      throw new ApiError(402, 'PAID_PLAN_REQUIRED', 'Alerts need the Secteur offer or above.');
    }
    await next();
  };
}

/** Filter values as the /annonces query string would carry them: numbers and lists written as text. */
function asQueryValues(filtres: NonNullable<AlertBody['filtres']>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(filtres)) {
    if (value === null) continue;
    values[name] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return values;
}

/** Every faulty field of the body at once: its own fields, then each filter as /annonces names it. */
function parseAlertBody(raw: Record<string, unknown>): { body: AlertBody; filters: AlertFilters; filtres: Record<string, string> } {
  const issues: z.core.$ZodIssue[] = [];
  const unknownField = (field: string, message: string) => ({ code: 'custom' as const, path: [field], message, input: undefined });
  for (const field of Object.keys(raw)) {
    if (!ALERT_BODY_FIELDS.has(field)) issues.push(unknownField(field, 'is not a field of an alert (filtres, evenements, url)'));
  }
  const body = AlertBody.safeParse(raw);
  if (!body.success) issues.push(...body.error.issues);
  // The filters are checked even when another field is wrong, so that every fault is reported at once.
  const given = AlertBody.shape.filtres.safeParse(raw.filtres);
  const filtres = given.success ? asQueryValues(given.data ?? {}) : {};
  for (const name of Object.keys(filtres)) {
    if (!ALERT_FILTER_NAMES.has(name)) issues.push(unknownField(`filtres.${name}`, 'is not a filter of /annonces'));
  }
  const filters = AlertFilters.safeParse(filtres);
  if (!filters.success) issues.push(...filters.error.issues.map((issue) => ({ ...issue, path: [`filtres.${String(issue.path[0] ?? '')}`] })));
  if (issues.length || !body.success || !filters.success) throw rejection(issues);
  return { body: body.data, filters: filters.data, filtres };
}

export function createAlert(deps: AppDeps) {
  return async function createAlertHandler(ctx: ApiContext): Promise<void> {
    const caller = callerOf(ctx);
    if (!ctx.state.body) throw new Error('POST /alertes ran without its jsonRequest middleware');
    const { body, filters, filtres } = parseAlertBody(ctx.state.body);
    const sites = resolveSites(filters, caller, deps.sites);
    if (sites.unknown.length) ctx.set('X-Unknown-Sources', sites.unknown.join(',').slice(0, 1000));
    const urlProblem = await receiverUrlProblem(body.url, deps.alertPrivateUrls);
    if (urlProblem) throw badRequest([{ field: 'url', message: urlProblem }]);
    const alert: Alert = {
      id: `al_${randomUUID().replaceAll('-', '')}`,
      account_id: caller.account.id,
      filtres,
      filter: toListingFilter(filters),
      eligible_sites: sites.eligible,
      evenements: ALERT_EVENTS.filter((event) => (body.evenements ?? ALERT_EVENTS).includes(event)),
      url: body.url,
      secret: `whsec_${randomBytes(24).toString('base64url')}`,
      created_at: deps.now(),
      failing_since: null,
      paused_at: null,
    };
    if (!(await deps.alerts.createAlert(alert, caller.offer.maxAlerts))) {
      throw new ApiError(409, 'ALERT_LIMIT', `The account already holds ${caller.offer.maxAlerts} alerts, the most its offer allows; delete one first.`);
    }
    ctx.status = 201;
    ctx.set('Location', `${ctx.path}/${alert.id}`);
    ctx.body = { ...presentAlert(alert, 0), secret: alert.secret };
  };
}

export function listAlerts(deps: AppDeps) {
  return async function listAlertsHandler(ctx: ApiContext): Promise<void> {
    const caller = callerOf(ctx);
    const alerts = await deps.alerts.listAlerts(caller.account.id);
    const pending = await Promise.all(alerts.map((alert) => deps.alerts.pendingCount(alert.id)));
    ctx.body = { items: alerts.map((alert, i) => presentAlert(alert, pending[i])), count: alerts.length, max: caller.offer.maxAlerts };
  };
}

/** The caller's alert, or 404 (another account's alert is not disclosed). */
async function ownAlert(deps: AppDeps, ctx: ApiContext, id: string): Promise<Alert> {
  const alert = await deps.alerts.getAlert(id);
  if (!alert || alert.account_id !== callerOf(ctx).account.id) throw notFound(`No alert ${id} on this account.`);
  return alert;
}

export function showAlert(deps: AppDeps) {
  return async function showAlertHandler(ctx: ApiContext, params: AlertIdParams): Promise<void> {
    const alert = await ownAlert(deps, ctx, params.id);
    ctx.body = presentAlert(alert, await deps.alerts.pendingCount(alert.id));
  };
}

export function deleteAlert(deps: AppDeps) {
  return async function deleteAlertHandler(ctx: ApiContext, params: AlertIdParams): Promise<void> {
    const alert = await ownAlert(deps, ctx, params.id);
    await deps.alerts.deleteAlert(alert.id);
    ctx.status = 204;
  };
}

export function listDeliveries(deps: AppDeps) {
  return async function listDeliveriesHandler(ctx: ApiContext, params: AlertIdParams & DeliveriesParams): Promise<void> {
    const alert = await ownAlert(deps, ctx, params.id);
    const records = await deps.alerts.deliveryLog(alert.id, params.limit);
    ctx.body = { items: records.map(presentDelivery), count: records.length };
  };
}
