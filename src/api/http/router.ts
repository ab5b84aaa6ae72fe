/**
 * The router of the route table (routes.ts): each route one visible pipeline, its steps in the order
 * the table gives them (route.ts says what each does), then its handler with the parameters its
 * schemas parsed. Usually: authenticate -> rate limit -> validate (typed input) -> offer gate
 * -> meter (quota check, then counting) -> handler; detail and PTZ answer conditional requests
 * (`ETag`, 304) inside the meter.
 */
import Router from '@koa/router';
import type { ApiMiddleware, AppDeps, NoExtension, RequestState } from './state.js';
import { authenticate } from './middleware/authenticate.js';
import { meter, rateLimit, showUsage } from './middleware/metering.js';
import { filtersSites, siteFiltersOffer } from './middleware/site-filters.js';
import { conditional } from './middleware/freshness.js';
import { jsonRequest } from './middleware/json-request.js';
import type { Route, Step } from './route.js';
import { ROUTES } from './routes.js';

export const BASE_PATH = '/api/v1';

export function createRouter(deps: AppDeps): Router<RequestState, NoExtension> {
  const router = new Router<RequestState, NoExtension>({ prefix: BASE_PATH });
  const auth = authenticate(deps);
  const limit = rateLimit(deps);
  const middleware = (step: Step, route: Route): ApiMiddleware => {
    if (step === 'key') return auth;
    if (step === 'rate') return limit;
    if (step === 'usage') return showUsage(deps);
    if (step === 'input') return route.input.validate;
    if (step === 'siteFilters') return siteFiltersOffer((ctx) => filtersSites(route.input.params(ctx)));
    if (step === 'conditional') return conditional();
    if ('gate' in step) return step.gate();
    if ('meter' in step) return meter(deps, step.meter);
    return jsonRequest(step.jsonBody);
  };
  for (const route of ROUTES) {
    // OpenAPI's `{name}` is the router's `:name`.
    const path = route.path.replace(/\{(\w+)\}/g, ':$1');
    const chain = [...route.steps.map((step) => middleware(step, route)), route.endpoint(deps)];
    if (route.method === 'post') router.post(path, ...chain);
    else if (route.method === 'delete') router.delete(path, ...chain);
    else router.get(path, ...chain);
  }
  return router;
}
