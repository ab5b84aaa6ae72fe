/**
 * Writes client/openapi.json, the document the client's types are generated from (npm run
 * client:types then runs openapi-typescript on it). A test checks it matches the served document.
 */
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../src/http/openapi.js';
import { VERSION } from '../src/server.js';
import { clientDocument } from './document.js';

writeFileSync(new URL('./openapi.json', import.meta.url), `${JSON.stringify(clientDocument(openApiDocument(VERSION)), null, 2)}\n`);
