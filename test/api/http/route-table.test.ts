/**
 * The route table drives the router and the OpenAPI document: the router registers every route of
 * the table, in its order, with the table's methods; the document describes every route but the
 * undocumented ones; a route whose parameters have schemas but no step to parse them is refused when
 * the table is built, not at its first request.
 */
import { expect } from 'chai';
import { z } from 'zod';
import { createRouter, BASE_PATH } from '../../../src/api/http/router.js';
import { ROUTES } from '../../../src/api/http/routes.js';
import { openApiDocument } from '../../../src/api/http/openapi.js';
import { defineRoute } from '../../../src/api/http/route.js';
import type { AppDeps } from '../../../src/api/http/state.js';

// Building the router runs no middleware: nothing of the dependencies is read but the version.
const deps = { version: 'test' } as AppDeps;

describe('route table', () => {
  it('the router registers every route of the table, in order, with its method', () => {
    const routed = createRouter(deps).stack.map((layer) => `${layer.methods.filter((m) => m !== 'HEAD').join(',')} ${layer.path}`);
    const declared = ROUTES.map((route) => `${(route.method ?? 'get').toUpperCase()} ${BASE_PATH}${route.path.replace(/\{(\w+)\}/g, ':$1')}`);
    expect(routed).to.deep.equal(declared);
  });

  it('the document describes every documented route of the table, and only those', () => {
    const paths = openApiDocument(ROUTES, 'test').paths as Record<string, Record<string, unknown>>;
    const described = Object.entries(paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`));
    const documented = ROUTES.filter((route) => !route.undocumented).map((route) => `${route.method ?? 'get'} ${route.path}`);
    expect(described.sort()).to.deep.equal(documented.sort());
    expect(Object.keys(paths)).to.not.include('/docs/{file}');
  });

  it('refuses a route with parameter schemas but no input step', () => {
    const route = () =>
      defineRoute({ path: '/x', summary: 'x', steps: ['key'], query: z.object({ a: z.string() }), answer: null, errors: [], handler: () => async () => {} });
    expect(route).to.throw(/needs the 'input' step/);
  });
});
