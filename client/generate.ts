/**
 * Writes client/openapi.json, the document the client's types are generated from (npm run
 * client:types then runs openapi-typescript on it). A test checks it matches the served document.
 */
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../src/api/http/openapi.js';
import { ROUTES } from '../src/api/http/routes.js';
import { VERSION } from '../src/service.js';
import { clientDocument } from './document.js';

writeFileSync(new URL('./openapi.json', import.meta.url), `${JSON.stringify(clientDocument(openApiDocument(ROUTES, VERSION)), null, 2)}\n`);
