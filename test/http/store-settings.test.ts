/** Settings of the API's embedded listings store, through the real service wiring (npm start). */
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app.js';
import { loadConfig } from '../../src/config/config.js';
import { SqliteListingStore } from '../../src/stores/sqlite/listing-store.js';
import { makeListings } from '../support/fixtures.js';

const MIB = 1024 * 1024;

describe('API listings store settings', () => {
  const mappedBytes = (app: TestApp) => {
    const store = app.service.deps.listings;
    if (!(store instanceof SqliteListingStore)) throw new Error('expected the embedded store');
    return store.database.pragma('mmap_size', { simple: true });
  };

  it('maps 2 047 MiB of the listings file by default, SQLITE_MMAP_MIB otherwise (0: none), and answers the same', async () => {
    const listings = makeListings({ count: 80, seed: 3 });
    const answers: unknown[] = [];
    for (const [env, expected] of [[{}, 2047 * MIB], [{ SQLITE_MMAP_MIB: '64' }, 64 * MIB], [{ SQLITE_MMAP_MIB: '0' }, 0]] as const) {
      const app = await startTestApp({ listings, env });
      try {
        expect(mappedBytes(app), JSON.stringify(env)).to.equal(expected);
        const key = await app.newKey();
        const { status, body } = await app.get('/annonces?sort=price_asc&page_size=50', key);
        expect(status).to.equal(200);
        answers.push(body.items.map((item: { reference: string }) => item.reference));
      } finally {
        await app.close();
      }
    }
    expect(answers[1]).to.deep.equal(answers[0]);
    expect(answers[2]).to.deep.equal(answers[0]);
  });

  it('refuses a mapping above what SQLite can map, naming the setting', () => {
    expect(() => loadConfig({ SQLITE_MMAP_MIB: '4096' })).to.throw(/SQLITE_MMAP_MIB/);
    expect(() => loadConfig({ SQLITE_MMAP_MIB: '-1' })).to.throw(/SQLITE_MMAP_MIB/);
  });
});
