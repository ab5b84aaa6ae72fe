import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SqliteListingStore } from '../../src/stores/sqlite/listing-store.js';
import { runListingStoreConformance } from './listing-store.suite.js';

runListingStoreConformance('sqlite', async () => new SqliteListingStore(path.join(mkdtempSync(path.join(tmpdir(), 'ls-')), 'listings.sqlite')));
