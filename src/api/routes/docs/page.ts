/**
 * GET /docs (no key): the OpenAPI document rendered by Swagger UI, served from its npm package
 * (swagger-ui-dist; the API may run without internet access), with "Authorize" to enter a key and
 * "Try it out" to send requests from the page.
 */
import type { ApiContext } from '../../http/state.js';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { notFound } from '../../http/errors.js';

const UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The files of the package the page loads, by name and type. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

// Paths relative to /api/v1/docs, so the page works under any prefix a proxy adds.
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Annonces API</title>
  <link rel="stylesheet" href="docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs/swagger-ui-bundle.js"></script>
  <script src="docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: 'openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
  displayRequestDuration: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

export function docsPage() {
  return async function docsPageHandler(ctx: ApiContext): Promise<void> {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = PAGE;
  };
}

export function docsAsset() {
  const files = new Map<string, { type: string; body: Buffer | string }>(
    Object.entries(ASSETS).map(([name, type]) => [name, { type, body: readFileSync(path.join(UI_DIR, name)) }]),
  );
  files.set('init.js', { type: 'text/javascript; charset=utf-8', body: INIT });
  return async function docsAssetHandler(ctx: ApiContext): Promise<void> {
    const file = files.get(ctx.params.file);
    if (!file) throw notFound(`No file ${ctx.params.file} in the documentation page`);
    ctx.type = file.type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = file.body;
  };
}
